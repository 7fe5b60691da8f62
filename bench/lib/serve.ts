// Starts `site-gen serve` on a free port for a built folder, as a user previews it, and stops it again.
import { spawn } from 'node:child_process';

export interface Served {
  url: string;
  stop(): Promise<void>;
}

export function serve(root: string, out: string): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/site-gen.js', 'serve', '--out', out, '--port', '0'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const onData = (data: Buffer) => {
      output += data;
      const match = /Serving .* at (http:\/\/\S+)/.exec(output);
      if (!match) return;
      child.stdout.off('data', onData);
      resolve({
        url: match[1]!.replace(/\/$/, ''),
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (output += d));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`site-gen serve --out ${out} exited (code ${code}) before serving:\n${output.trim()}`)));
  });
}
