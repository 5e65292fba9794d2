// Node's https module as CommonJS (see BUNDLE_ALIASES in lib/bundling.ts).
module.exports = process.getBuiltinModule('node:https');
