#!/usr/bin/env node
// Entry point: runs the tool compiled to JavaScript (src/tool/compile.js compiles it on first use and after any change
// of its sources), then hands the arguments to the CLI.
// React's production server renderer: the same HTML as the development one, several times faster (it matters most to
// `site-gen watch`, which renders every page on each save). Set before anything imports React.
process.env.NODE_ENV ??= 'production';
// Before the tool loads, so stack traces (with --debug) name the lines of src/*.ts through the compiled tool's maps.
process.setSourceMapsEnabled(true);
const { compiledTool, ToolCompileError } = await import('../src/tool/compile.js');
let tool;
try {
  tool = await compiledTool();
} catch (error) {
  if (!(error instanceof ToolCompileError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}
const { main } = await import(tool.main);
process.exitCode = await main(process.argv);
