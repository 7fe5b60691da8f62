// Types of package-contents.js (plain JavaScript: the release script runs it without compiling anything).
export declare const NOT_SHIPPED: RegExp;
export declare const REQUIRED: string[];
export declare function packageProblems(paths: string[]): string[];
export interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: Array<{ path: string }>;
}
export declare function parsePackJson(stdout: string): PackResult;
