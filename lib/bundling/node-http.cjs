// Node's http module as CommonJS (see BUILTIN_ALIASES in lib/bundling.ts).
module.exports = process.getBuiltinModule('node:http');
