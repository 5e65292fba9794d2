// Stands in for @smithy/core/checksum in function bundles (see BUNDLE_ALIASES in lib/bundling.ts).
// The SDK's SHA-256 (request signatures) and MD5 (SQS message checks) use Node's crypto when it has them and
// otherwise fall back to pure-JavaScript copies, ~5 KB minified, that Lambda's Node, which always has them, never
// runs. These are the same hashes on Node's crypto alone; everything else is the SDK's own module.
import { createHash, createHmac } from 'node:crypto';

export * from '../../node_modules/@smithy/core/dist-es/submodules/checksum/index.js';

const bytesOf = (data) =>
  typeof data === 'string'
    ? Buffer.from(data, 'utf8')
    : ArrayBuffer.isView(data)
      ? Buffer.from(data.buffer, data.byteOffset, data.byteLength)
      : Buffer.from(data);
const asUint8Array = (buffer) => new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);

/** The SDK's hash interface: update, an asynchronous digest, reset; a secret makes it an HMAC. */
class NodeHash {
  constructor(algorithm, secret) {
    this.algorithm = algorithm;
    this.secret = secret;
    this.reset();
  }
  update(data) {
    this.hash.update(bytesOf(data));
  }
  async digest() {
    // An HMAC is finished by its digest; a plain hash is copied, so update may go on.
    return asUint8Array(this.secret ? this.hash.digest() : this.hash.copy().digest());
  }
  reset() {
    this.hash = this.secret ? createHmac(this.algorithm, bytesOf(this.secret)) : createHash(this.algorithm);
  }
}

export class Sha256 extends NodeHash {
  digestLength = 32;
  constructor(secret) {
    super('sha256', secret);
  }
}

export class Md5 extends NodeHash {
  digestLength = 16;
  constructor() {
    super('md5');
  }
}
