// `site-gen deploy`: publishes the built site to an S3 bucket, flags over the deploy section of site.config.ts.
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { EXIT_CDN_NOT_INVALIDATED, EXIT_LOCKED } from '../core/errors.ts';
import { configOption, outOption } from './options.ts';
import {
  DEFAULTS,
  resolveDeployOptions,
  rollbackCommand,
  type DeployConfig,
  type DeployFlags,
} from '../deploy/options.ts';

interface Flags extends DeployFlags {
  config: string;
}

/**
 * The deploy section of the site configuration, for deploy, releases and rollback. Flags alone are enough: the
 * default site.config.ts is read only when it exists; one given with --config must.
 */
export async function deployConfig(
  file: string,
  command: Command,
  loadConfig: (file: string) => Promise<{ deploy: DeployConfig }>,
): Promise<DeployConfig | undefined> {
  const explicit = command.getOptionValueSource('config') !== 'default';
  return explicit || existsSync(file) ? (await loadConfig(file)).deploy : undefined;
}

export function addDeployCommand(program: Command): void {
  program
    .command('deploy')
    // The command's own help: its flags, not the list of commands.
    .showHelpAfterError('(run "site-gen deploy --help" for usage)')
    .description(
      'publish the output folder to an S3 bucket, uploading only what changed: assets first, pages next, deletes last',
    )
    .addOption(configOption())
    .addOption(outOption('the built site to upload'))
    .option('--bucket <name>', 'S3 bucket to deploy to (or deploy.bucket)')
    .option(
      '--prefix <path>',
      'key prefix to deploy under, e.g. "preview/" (or deploy.prefix; default: the bucket root)',
    )
    .option('--region <region>', "bucket region (or deploy.region; default: AWS_REGION or the profile's region)")
    .option('--endpoint <url>', 'S3-compatible endpoint such as MinIO or R2, path-style (or deploy.endpoint)')
    .option('--dry-run', 'print the plan (uploads, deletes, unchanged, bytes) and change nothing')
    .option(
      '--max-deletes <n>',
      `delete nothing when more than n files would be deleted (or deploy.maxDeletes; default ${DEFAULTS.maxDeletes})`,
    )
    .option(
      '--concurrency <n>',
      `requests in parallel, 1 to 64 (or deploy.concurrency; default ${DEFAULTS.concurrency})`,
    )
    .option('--gzip', 'store text files gzip-encoded with Content-Encoding: gzip (or deploy.gzip; default off)')
    .option('--no-gzip', 'store every file as is, overriding deploy.gzip')
    .option(
      '--configure-website',
      "set the bucket's website hosting: index document index.html, error document 404.html",
    )
    .option(
      '--cloudfront-distribution <id>',
      'CloudFront distribution to invalidate after a deploy that changed pages (or deploy.cloudfront.distribution)',
    )
    .option(
      '--cloudfront-max-paths <n>',
      `invalidate "/*" instead when more paths changed, 1 to 3000 (or deploy.cloudfront.maxPaths; default ${DEFAULTS.cloudfrontMaxPaths})`,
    )
    .option('--cloudfront-endpoint <url>', 'another endpoint for the CloudFront API (a test stand-in)')
    .option('--wait', 'wait until CloudFront reports the invalidation complete')
    .option(
      '--keep-releases <n>',
      `releases kept in the bucket for \`site-gen rollback\`, 1 to 1000 (or deploy.keepReleases; default ${DEFAULTS.keepReleases})`,
    )
    .option('--force-unlock', "remove another run's deploy lock first: only when you are sure that run is not running")
    .addHelpText(
      'after',
      `
The deploy section of the configuration sets defaults for the options above; a flag wins over it.
Credentials come from the AWS SDK's default chain only: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE,
SSO, or an IAM role. Nothing secret goes in site.config.ts or on the command line.

Exit codes: 0 deployed (and invalidated); 1 failed (run it again to finish); ${EXIT_CDN_NOT_INVALIDATED} deployed to S3, but the CloudFront
distribution was not invalidated (the message gives the command that does it by hand); ${EXIT_LOCKED} refused: another deploy or
rollback holds the lock (the message names it), nothing was changed.

Each deploy records a release: \`site-gen releases\` lists them, \`site-gen rollback\` restores the one before.

Examples:
  site-gen deploy --bucket www.example.com --region eu-west-1 --dry-run
  site-gen deploy --bucket my-site --endpoint http://127.0.0.1:9000 --configure-website
  site-gen deploy --bucket www.example.com --cloudfront-distribution E2QWRUHAPOMQZL --wait`,
    )
    .action(async (flags: Flags, command: Command) => {
      // Loaded here, not at the top: the AWS SDK and the config loader cost every other command their start-up time.
      const [{ loadConfig }, { deploy }] = await Promise.all([
        import('../pipeline/load-config.ts'),
        import('../deploy/deploy.ts'),
      ]);
      const config = await deployConfig(flags.config, command, loadConfig);
      const explicitConfig = command.getOptionValueSource('config') !== 'default' ? flags.config : undefined;
      await deploy({
        ...resolveDeployOptions(flags, config, process.cwd()),
        exitOnSignal: true,
        undo: rollbackCommand(flags, explicitConfig),
      });
    });
}
