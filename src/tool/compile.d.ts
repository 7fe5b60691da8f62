// Types of compile.js (plain JavaScript, since it runs before anything can compile TypeScript).
export declare const toolRoot: string;
export declare function toolCacheDir(root?: string): string;
export declare function toolSources(root?: string): string[];
export declare function toolStamp(root?: string): string;
export declare class ToolCompileError extends Error {
  constructor(messages: import('esbuild').Message[]);
}
export interface CompiledTool {
  /** The folder of this compile. */
  dir: string;
  /** File URL of the compiled src/cli/main.ts. */
  main: string;
  /** File URL of the compiled src/index.ts (the public entry). */
  index: string;
  /** Whether this call compiled it (false: an earlier compile of the same sources was reused). */
  compiled: boolean;
}
export declare function compiledTool(root?: string): Promise<CompiledTool>;
