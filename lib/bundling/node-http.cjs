// Node's http module as CommonJS (see BUNDLE_ALIASES in lib/bundling.ts).
module.exports = process.getBuiltinModule('node:http');
