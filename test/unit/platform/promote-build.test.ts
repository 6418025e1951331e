// promoteBuild against a scripted frontend: what it waits for after making a build current, and
// that a look failing for a passing reason (UNAVAILABLE) during that wait is looked at again
// rather than ending the wait. The real frontend: test/integration/platform/worker-versioning.test.ts.
import { describe, expect, it } from 'vitest';
import { promoteBuild } from '../../../workers/worker-versioning';

const IN_PROGRESS = 1;
const COMPLETED = 2;
const version = { deploymentName: 'd', buildId: 'b2' };

function unavailable() {
  return Object.assign(new Error('14 UNAVAILABLE: frontend restarting'), { code: 14, details: 'frontend restarting', metadata: {} });
}

/** A frontend whose answers are scripted in order; `calls` lists what was asked. */
function frontend(script: { deployment: Array<() => unknown>; taskQueue?: Array<() => unknown> }) {
  const calls: string[] = [];
  const next = (answers: Array<() => unknown>, what: string) => {
    calls.push(what);
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    return Promise.resolve().then(answer);
  };
  const service = {
    describeWorkerDeployment: () => next(script.deployment, 'describeWorkerDeployment'),
    describeTaskQueue: () => next(script.taskQueue ?? [], 'describeTaskQueue'),
    setWorkerDeploymentCurrentVersion: () => {
      calls.push('setCurrent');
      return Promise.resolve({});
    },
  };
  return { service: service as never, calls };
}

const deployment = (current: string | undefined, state: number) => () => ({
  conflictToken: new Uint8Array([1]),
  workerDeploymentInfo: { routingConfig: { currentDeploymentVersion: current ? { buildId: current } : null }, routingConfigUpdateState: state },
});
const fail = () => {
  throw unavailable();
};

describe('promoteBuild', () => {
  it('after making the build current, waits until the routing update completed, looking again after an UNAVAILABLE', async () => {
    const { service, calls } = frontend({
      deployment: [deployment('b1', COMPLETED), fail, deployment('b2', IN_PROGRESS), deployment('b2', COMPLETED)],
    });
    expect(await promoteBuild(service, { namespace: 'n', version, timeoutMs: 10_000 })).toBe('promoted');
    expect(calls).toEqual(['describeWorkerDeployment', 'setCurrent', 'describeWorkerDeployment', 'describeWorkerDeployment', 'describeWorkerDeployment']);
  });

  it('with awaitTaskQueue, waits until that workflow queue routes to the build instead, looking again after an UNAVAILABLE', async () => {
    const { service, calls } = frontend({
      deployment: [deployment(undefined, COMPLETED), deployment('b2', IN_PROGRESS)],
      taskQueue: [fail, () => ({ versioningInfo: null }), () => ({ versioningInfo: { currentDeploymentVersion: { buildId: 'b2' } } })],
    });
    expect(await promoteBuild(service, { namespace: 'n', version, awaitTaskQueue: 'q', timeoutMs: 10_000 })).toBe('promoted');
    expect(calls).toEqual(['describeWorkerDeployment', 'setCurrent', 'describeTaskQueue', 'describeTaskQueue', 'describeTaskQueue']);
  });

  it('names the state it last saw when the routing does not complete in time', async () => {
    const { service } = frontend({ deployment: [deployment('b1', COMPLETED), deployment('b2', IN_PROGRESS)] });
    await expect(promoteBuild(service, { namespace: 'n', version, timeoutMs: 300 })).rejects.toThrow('d: routing update state 1, not completed in time');
  });

  it('changes nothing and waits for nothing when the build is current already', async () => {
    const { service, calls } = frontend({ deployment: [deployment('b2', IN_PROGRESS)] });
    expect(await promoteBuild(service, { namespace: 'n', version })).toBe('already-current');
    expect(calls).toEqual(['describeWorkerDeployment']);
  });
});
