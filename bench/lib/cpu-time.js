// Preloaded into each timed build (`node --import`): writes the process's own CPU time (user + system, ms) to the file
// named by BENCH_CPU_FILE when it exits, and its peak memory to BENCH_RSS_FILE. Less sensitive than wall-clock time to other work on a shared machine.
import { writeFileSync } from 'node:fs';

process.on('exit', () => {
  const { user, system } = process.cpuUsage();
  if (process.env.BENCH_CPU_FILE) writeFileSync(process.env.BENCH_CPU_FILE, String((user + system) / 1000));
  // User time alone: the system time of writing many small files swings widely with the disk's other users.
  if (process.env.BENCH_USER_FILE) writeFileSync(process.env.BENCH_USER_FILE, String(user / 1000));
  // Peak resident memory of this process (esbuild's own process not included), KB.
  if (process.env.BENCH_RSS_FILE) writeFileSync(process.env.BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
});
