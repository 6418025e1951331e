// `npm run release:promote -- <buildId> [--ramp <percent>]` (docs/releases.md): makes a deployed
// build the current version of the platform's Worker Deployment, or sends it a share of new starts
// first. Reads TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and TEMPORAL_DEPLOYMENT_NAME like the worker.
// The build's workers must be running: the frontend refuses a version it has seen no poller of.
import { Connection } from '@temporalio/client';
import { ConfigError, loadSettings } from '../workers/config';
import { promoteBuild } from '../workers/worker-versioning';

const USAGE = 'usage: npm run release:promote -- <buildId> [--ramp <0-100>]';

function parseArgs(argv: string[]) {
  const [buildId, ...rest] = argv;
  if (!buildId || buildId.startsWith('-')) throw new Error(USAGE);
  if (rest.length === 0) return { buildId, ramp: undefined };
  const ramp = Number(rest[1]);
  if (rest[0] !== '--ramp' || rest.length !== 2 || !Number.isFinite(ramp) || ramp < 0 || ramp > 100) throw new Error(USAGE);
  return { buildId, ramp };
}

async function main() {
  const { buildId, ramp } = parseArgs(process.argv.slice(2));
  const settings = loadSettings();
  const address = settings['temporal.address'];
  if (!address) throw new Error('TEMPORAL_ADDRESS is not set: name the Temporal frontend (host:port) the workers use');
  const namespace = settings['temporal.namespace'];
  const version = { deploymentName: settings['temporal.deployment-name'], buildId };
  const connection = await Connection.connect({ address });
  try {
    const outcome = await promoteBuild(connection.workflowService, { namespace, version, rampPercent: ramp, timeoutMs: 30_000 });
    const d = await connection.workflowService.describeWorkerDeployment({ namespace, deploymentName: version.deploymentName });
    const routing = d.workerDeploymentInfo?.routingConfig;
    process.stdout.write(
      `${version.deploymentName} ${buildId}: ${outcome}\n` +
        `  current: ${routing?.currentDeploymentVersion?.buildId || '(unversioned)'}\n` +
        `  ramping: ${routing?.rampingDeploymentVersion?.buildId ? `${routing.rampingDeploymentVersion.buildId} at ${routing.rampingVersionPercentage}%` : '(none)'}\n`,
    );
  } finally {
    await connection.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError || err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
