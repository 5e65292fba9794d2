/**
 * The virus-scanner adapter of uploads.
 * Scanning is out of scope: the attach step asks the configured adapter
 * (FILE_SCANNER), and the item's `scan_status` is its answer. `none`, the
 * default, scans nothing (`not_scanned`). `test` stands in for a real engine
 * in the local stack and the tests: it finds the EICAR anti-virus test string
 * (what every engine flags on purpose) and passes everything else as `clean`;
 * it is refused outside the local stack, where a `clean` from it would be a
 * claim nobody checked. A real engine is one more adapter here.
 */

export type ScanStatus = 'not_scanned' | 'clean' | 'infected';

export interface FileScanner {
  readonly name: string;
  scan(body: Uint8Array): Promise<ScanStatus>;
}

/** The EICAR test file's 68 characters (eicar.org): harmless, and flagged by every scanner. */
export const EICAR_TEST_STRING = 'X5O!P%@AP[4\\PZX54(P^)7CC)7}$EICAR-STANDARD-ANTIVIRUS-TEST-FILE!$H+H*';

const none: FileScanner = { name: 'none', scan: async () => 'not_scanned' };

const test: FileScanner = {
  name: 'test',
  scan: async (body) => (Buffer.from(body.buffer, body.byteOffset, body.byteLength).includes(EICAR_TEST_STRING, 0, 'latin1') ? 'infected' : 'clean'),
};

export const SCANNERS = { none, test } as const;
export type ScannerName = keyof typeof SCANNERS;
export const SCANNER_NAMES = Object.keys(SCANNERS) as ScannerName[];
export const isScannerName = (name: string): name is ScannerName => Object.hasOwn(SCANNERS, name);

export const scannerNamed = (name: ScannerName): FileScanner => SCANNERS[name];
