// `site-gen releases`: lists the releases kept in the bucket, newest first, the live one marked.
import type { Command } from 'commander';
import { configOption } from './options.ts';
import type { DeployFlags } from '../deploy/options.ts';

interface Flags extends DeployFlags {
  config: string;
  json?: boolean;
}

export function addReleasesCommand(program: Command): void {
  program
    .command('releases')
    .showHelpAfterError('(run "site-gen releases --help" for usage)')
    .description('list the releases kept in the bucket, newest first; the live one is marked with *')
    .addOption(configOption())
    .option('--bucket <name>', 'S3 bucket (or deploy.bucket)')
    .option('--prefix <path>', 'key prefix the site is deployed under (or deploy.prefix)')
    .option('--region <region>', 'bucket region (or deploy.region)')
    .option('--endpoint <url>', 'S3-compatible endpoint, path-style (or deploy.endpoint)')
    .option('--json', 'print the list as JSON: { live, releases: [{ id, createdAt, git, by, objects, bytes }] }')
    .addHelpText(
      'after',
      `
One request (s3:GetObject on .site-gen/releases.json under the prefix). Exit codes: 0 listed; 1 failed.

Examples:
  site-gen releases --bucket www.example.com
  site-gen rollback --to 20261125-143012-3f9a`,
    )
    .action(async (flags: Flags, command: Command) => {
      const [{ loadConfig }, { deployConfig }, { resolveBucketOptions }, { listReleases }] = await Promise.all([
        import('../pipeline/load-config.ts'),
        import('./deploy.ts'),
        import('../deploy/options.ts'),
        import('../deploy/list-releases.ts'),
      ]);
      const config = await deployConfig(flags.config, command, loadConfig);
      await listReleases({ ...resolveBucketOptions(flags, config, 'releases'), json: flags.json ?? false });
    });
}
