// `site-gen rollback`: makes the bucket serve a kept release again, without its files and without a rebuild.
import type { Command } from 'commander';
import { configOption } from './options.ts';
import { EXIT_CDN_NOT_INVALIDATED, EXIT_LOCKED } from '../core/errors.ts';
import { DEFAULTS, type DeployFlags } from '../deploy/options.ts';

interface Flags extends DeployFlags {
  config: string;
  to?: string;
  verify?: boolean;
}

export function addRollbackCommand(program: Command): void {
  program
    .command('rollback')
    .showHelpAfterError('(run "site-gen rollback --help" for usage)')
    .description(
      'serve a kept release again (default: the one before the live one) by copies inside the bucket; no rebuild',
    )
    .option('--to <id>', 'the release to restore, as `site-gen releases` lists it')
    .option('--dry-run', 'print what would be restored, deleted and invalidated, and change nothing')
    .option(
      '--verify',
      "list the bucket and plan against what it holds, not what site-gen's records say (after a hand edit)",
    )
    .addOption(configOption())
    .option('--bucket <name>', 'S3 bucket (or deploy.bucket)')
    .option('--prefix <path>', 'key prefix the site is deployed under (or deploy.prefix)')
    .option('--region <region>', 'bucket region (or deploy.region)')
    .option('--endpoint <url>', 'S3-compatible endpoint, path-style (or deploy.endpoint)')
    .option(
      '--concurrency <n>',
      `requests in parallel, 1 to 64 (or deploy.concurrency; default ${DEFAULTS.concurrency})`,
    )
    .option(
      '--cloudfront-distribution <id>',
      'CloudFront distribution to invalidate (or deploy.cloudfront.distribution)',
    )
    .option(
      '--cloudfront-max-paths <n>',
      `invalidate "/*" instead when more paths changed (default ${DEFAULTS.cloudfrontMaxPaths})`,
    )
    .option('--cloudfront-endpoint <url>', 'another endpoint for the CloudFront API (a test stand-in)')
    .option('--wait', 'wait until CloudFront reports the invalidation complete')
    .option('--keep-releases <n>', `releases kept (or deploy.keepReleases; default ${DEFAULTS.keepReleases})`)
    .option('--force-unlock', "remove another run's deploy lock first: only when you are sure that run is not running")
    .addHelpText(
      'after',
      `
Exit codes: 0 rolled back (and invalidated); 1 failed (run it again to finish); ${EXIT_CDN_NOT_INVALIDATED} rolled back in S3, but the
CloudFront distribution was not invalidated; ${EXIT_LOCKED} refused: another deploy or rollback holds the lock, nothing was changed.

Examples:
  site-gen rollback --dry-run
  site-gen rollback --bucket www.example.com --cloudfront-distribution E2QWRUHAPOMQZL
  site-gen rollback --to 20261125-143012-3f9a`,
    )
    .action(async (flags: Flags, command: Command) => {
      const [{ loadConfig }, { deployConfig }, options, { rollback }] = await Promise.all([
        import('../pipeline/load-config.ts'),
        import('./deploy.ts'),
        import('../deploy/options.ts'),
        import('../deploy/rollback.ts'),
      ]);
      const config = await deployConfig(flags.config, command, loadConfig);
      await rollback({
        ...options.resolveBucketOptions(flags, config, 'rollback'),
        to: flags.to,
        dryRun: flags.dryRun ?? false,
        verify: flags.verify ?? false,
        concurrency:
          flags.concurrency !== undefined
            ? options.integer('--concurrency', flags.concurrency, 1, 64)
            : (config?.concurrency ?? DEFAULTS.concurrency),
        cloudfront: options.resolveCloudFront(flags, config),
        keepReleases: options.resolveKeepReleases(flags, config),
        forceUnlock: flags.forceUnlock ?? false,
        exitOnSignal: true,
      });
    });
}
