/** Tokens must never sit in a shared cache. */
export const NO_STORE = { 'cache-control': 'no-store' };
