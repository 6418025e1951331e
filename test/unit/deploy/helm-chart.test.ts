// The Helm chart in deploy/helm/tenant-platform, rendered by helm itself (built by
// scripts/install-helm.sh) with its defaults, with CI's KEDA values and with dispatchers folded
// into the workers; the rendered objects are checked, not the templates' text.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envName, settingDefs } from '../../../domain/settings';
import { chartDir, lintChart, locateHelm, ofKind, renderChart, renderFailure, repoRoot, type K8sObject } from './helm';

const secretSettings = Object.entries(settingDefs)
  .filter(([, d]) => d.secret)
  .map(([name]) => name)
  .sort();
const secretVariables = new Set(secretSettings.map(envName));
const values = parse(readFileSync(join(chartDir, 'values.yaml'), 'utf8'));
const kedaValues = parse(readFileSync(join(chartDir, 'ci/keda-values.yaml'), 'utf8'));
const SENTINEL = 'sentinel-value-never-rendered-7f3a';

let helm: string;
const renders: Record<'defaults' | 'keda' | 'inProcessDispatch' | 'workersOnly', K8sObject[]> = { defaults: [], keda: [], inProcessDispatch: [], workersOnly: [] };
const texts: string[] = [];

const container = (d: K8sObject) => d.spec.template.spec.containers[0] as K8sObject;
const deployment = (objects: K8sObject[], role: string) => ofKind(objects, 'Deployment').find((d) => d.metadata.name === `tp-tenant-platform-${role}`)!;
const configMap = (objects: K8sObject[]) => ofKind(objects, 'ConfigMap')[0]!.data as Record<string, string>;
const envOf = (c: K8sObject) => new Map((c.env as K8sObject[]).map((e) => [e.name as string, e]));
const each = () => Object.entries(renders).map(([name, objects]) => ({ name, objects }));

beforeAll(async () => {
  helm = await locateHelm();
  const [defaults, keda, inProcess, workersOnly] = await Promise.all([
    renderChart(helm),
    renderChart(helm, { files: ['ci/keda-values.yaml'] }),
    renderChart(helm, { values: { dispatcher: { mode: 'in-worker' } } }),
    renderChart(helm, { values: { api: { enabled: false }, dispatcher: { mode: 'none' } } }),
  ]);
  renders.defaults = defaults.objects;
  renders.keda = keda.objects;
  renders.inProcessDispatch = inProcess.objects;
  renders.workersOnly = workersOnly.objects;
  texts.push(defaults.text, keda.text, inProcess.text, workersOnly.text);
  // Building helm on a fresh machine takes minutes; CI builds it before the tests run.
}, 20 * 60_000);

describe('Helm chart: lint', () => {
  it('passes helm lint --strict with its defaults and with CI KEDA values', async () => {
    await expect(lintChart(helm)).resolves.toContain('0 chart(s) failed');
    await expect(lintChart(helm, { files: ['ci/keda-values.yaml'] })).resolves.toContain('0 chart(s) failed');
  });
});

describe('Helm chart: Deployments', () => {
  it('renders the API, worker and dispatcher Deployments; dispatchers in the workers or nowhere when told', () => {
    const names = (objects: K8sObject[]) => ofKind(objects, 'Deployment').map((d) => d.metadata.name).sort();
    const dispatching = (objects: K8sObject[]) => envOf(container(deployment(objects, 'worker'))).get('DISPATCHER_ENABLED')?.value;
    expect(names(renders.defaults)).toEqual(['tp-tenant-platform-api', 'tp-tenant-platform-dispatcher', 'tp-tenant-platform-worker']);
    expect(dispatching(renders.defaults)).toBe('false');
    expect(names(renders.inProcessDispatch)).toEqual(['tp-tenant-platform-api', 'tp-tenant-platform-worker']);
    expect(dispatching(renders.inProcessDispatch)).toBe('true');
    // A release that only keeps an older build's workers: no API, no Service, no HPA, no dispatching.
    expect(names(renders.workersOnly)).toEqual(['tp-tenant-platform-worker']);
    expect(dispatching(renders.workersOnly)).toBe('false');
    for (const kind of ['Service', 'HorizontalPodAutoscaler']) expect(ofKind(renders.workersOnly, kind)).toEqual([]);
  });

  it('runs entry points that exist, under node --import tsx', () => {
    for (const { objects } of each()) {
      for (const d of ofKind(objects, 'Deployment')) {
        const command = container(d).command as string[];
        expect(command.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
        expect(existsSync(join(repoRoot, command[3]!)), `${d.metadata.name}: ${command[3]}`).toBe(true);
      }
    }
  });

  it('gives every Deployment startup, readiness and liveness probes on ports its container declares', () => {
    for (const { name, objects } of each()) {
      for (const d of ofKind(objects, 'Deployment')) {
        const c = container(d);
        const ports = new Set((c.ports as K8sObject[]).map((p) => p.name));
        for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
          const p = c[probe] as K8sObject | undefined;
          expect(p, `${name} ${d.metadata.name} ${probe}`).toBeDefined();
          const port = p!.httpGet?.port ?? p!.tcpSocket?.port;
          expect(ports.has(port), `${name} ${d.metadata.name} ${probe} port ${port}`).toBe(true);
        }
      }
      if (name === 'workersOnly') continue;
      const api = container(deployment(objects, 'api'));
      expect(api.readinessProbe.httpGet.path).toBe('/health/ready');
      expect(api.livenessProbe.httpGet.path).toBe('/health/live');
    }
  });

  it('gives every container CPU and memory requests and limits', () => {
    for (const { objects } of each()) {
      for (const d of ofKind(objects, 'Deployment')) {
        for (const c of d.spec.template.spec.containers as K8sObject[]) {
          for (const side of ['requests', 'limits']) {
            expect(c.resources?.[side]?.cpu, `${d.metadata.name} ${side}.cpu`).toBeDefined();
            expect(c.resources?.[side]?.memory, `${d.metadata.name} ${side}.memory`).toBeDefined();
          }
        }
      }
    }
  });

  it('runs every pod as non-root on a read-only root filesystem, with /tmp writable and no service account token', () => {
    for (const d of ofKind(renders.defaults, 'Deployment')) {
      const pod = d.spec.template.spec;
      const c = container(d);
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(c.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      expect((c.volumeMounts as K8sObject[]).map((m) => m.mountPath)).toContain('/tmp');
      expect(envOf(c).get('HOME')?.value).toBe('/tmp');
    }
  });

  it('lets a worker stop for longer than the longest activity start-to-close timeout in workflows/', () => {
    const unit: Record<string, number> = { second: 1, minute: 60, hour: 3600 };
    const timeouts = readdirSync(join(repoRoot, 'workflows'))
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...readFileSync(join(repoRoot, 'workflows', f), 'utf8').matchAll(/startToCloseTimeout:\s*([^,}\n]+)/g)])
      .map((m) => {
        const parsed = /^'(\d+) (second|minute|hour)s?'$/.exec(m[1]!.trim());
        if (!parsed) throw new Error(`startToCloseTimeout ${m[1]} is not '<n> seconds|minutes|hours': teach this test its unit`);
        return Number(parsed[1]) * unit[parsed[2]!]!;
      });
    expect(timeouts.length).toBeGreaterThan(0);
    for (const { objects } of each()) {
      const grace = deployment(objects, 'worker').spec.template.spec.terminationGracePeriodSeconds;
      expect(grace).toBeGreaterThan(Math.max(...timeouts));
      expect(grace).toBe(values.worker.shutdownGraceSeconds + 30);
    }
    // The API's longest request is a PDF render (render.timeout-ms), after its pre-stop wait.
    const api = deployment(renders.defaults, 'api').spec.template.spec;
    expect(api.terminationGracePeriodSeconds).toBeGreaterThan(Number(settingDefs['render.timeout-ms'].default) / 1000 + values.api.preStopSleepSeconds);
  });
});

describe('Helm chart: settings and secrets', () => {
  it("lists as secret exactly the settings domain/settings.ts marks secret (templates and schema)", () => {
    const helpers = readFileSync(join(chartDir, 'templates/_helpers.tpl'), 'utf8');
    const listed = /define "tenant-platform\.secretSettings" -}}\n(.*)\n/.exec(helpers)![1]!.trim().split(/\s+/).sort();
    expect(listed).toEqual(secretSettings);
    const schema = JSON.parse(readFileSync(join(chartDir, 'values.schema.json'), 'utf8'));
    expect([...schema.properties.secrets.propertyNames.enum].sort()).toEqual(secretSettings);
    const refused: string[] = schema.$defs.settingsMap.propertyNames.not.enum;
    for (const name of secretSettings) expect(refused).toContain(name);
    for (const name of refused) expect(settingDefs, name).toHaveProperty([name]);
  });

  it('writes only variables of known, non-secret settings into the ConfigMap', () => {
    const known = new Set(Object.keys(settingDefs).map(envName));
    for (const { objects } of each()) {
      for (const key of Object.keys(configMap(objects))) {
        expect(known.has(key), `${key} is no setting's variable`).toBe(true);
        expect(secretVariables.has(key), `${key} is secret`).toBe(false);
      }
    }
    for (const name of Object.keys(values.settings)) expect(settingDefs, name).toHaveProperty([name]);
  });

  it('passes secret settings only as secretKeyRef to existing Secrets, the dispatcher only its own two', () => {
    for (const [name, objects, given] of [
      ['defaults', renders.defaults, values.secrets],
      ['keda', renders.keda, kedaValues.secrets],
    ] as const) {
      expect(ofKind(objects, 'Secret'), `${name}: the chart creates no Secret`).toEqual([]);
      for (const d of ofKind(objects, 'Deployment')) {
        const env = envOf(container(d));
        const role = d.metadata.labels['app.kubernetes.io/component'];
        for (const [setting, ref] of Object.entries(given as Record<string, { name: string; key: string; optional?: boolean }>)) {
          const entry = env.get(envName(setting));
          if (role === 'dispatcher' && !['database.url', 'metrics.token'].includes(setting)) {
            expect(entry, `${name} dispatcher receives ${setting}`).toBeUndefined();
            continue;
          }
          expect(entry?.valueFrom?.secretKeyRef, `${name} ${role} ${setting}`).toEqual({ name: ref.name, key: ref.key, ...(ref.optional ? { optional: true } : {}) });
        }
        for (const e of env.values()) {
          if (secretVariables.has(e.name)) expect(e.value, `${name} ${role} ${e.name} inline`).toBeUndefined();
        }
      }
    }
  });

  it('refuses a secret setting given as a value, in the schema and in the templates, and prints it nowhere', async () => {
    const cases = [
      { settings: { 'internal.key': SENTINEL } },
      { worker: { settings: { 'database.url': SENTINEL } } },
      { api: { settings: { 'secrets.master-key': SENTINEL } } },
    ];
    for (const v of cases) {
      for (const args of [[], ['--skip-schema-validation']]) {
        const out = await renderFailure(helm, { values: v, args });
        expect(out).toMatch(/internal\.key|database\.url|secrets\.master-key/);
        expect(out).not.toContain(SENTINEL);
      }
    }
    for (const text of texts) expect(text).not.toContain(SENTINEL);
  });

  it('refuses a settings key the chart derives from its own values', async () => {
    const out = await renderFailure(helm, { values: { settings: { 'temporal.task-queue': 'other' } }, args: ['--skip-schema-validation'] });
    expect(out).toContain('set by the chart');
  });
});

describe('Helm chart: disruption, scaling and scraping', () => {
  it('has one PodDisruptionBudget per Deployment, selecting exactly its pods', () => {
    for (const { name, objects } of each()) {
      const deployments = ofKind(objects, 'Deployment');
      const budgets = ofKind(objects, 'PodDisruptionBudget');
      expect(budgets.length, name).toBe(deployments.length);
      for (const d of deployments) {
        const labels = d.spec.template.metadata.labels;
        const matching = budgets.filter((b) => Object.entries(b.spec.selector.matchLabels).every(([k, v]) => labels[k] === v));
        expect(matching.length, `${name} ${d.metadata.name}`).toBe(1);
        expect(matching[0]!.spec.maxUnavailable).toBeDefined();
      }
    }
  });

  it('scales the API with an HPA that owns its replica count', () => {
    const [hpa, ...others] = ofKind(renders.defaults, 'HorizontalPodAutoscaler');
    expect(others).toEqual([]);
    expect(hpa!.apiVersion).toBe('autoscaling/v2');
    expect(hpa!.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'tp-tenant-platform-api' });
    expect(deployment(renders.defaults, 'api').spec.replicas).toBeUndefined();
    expect(ofKind(renders.defaults, 'Service')[0]!.spec.selector).toEqual(
      Object.fromEntries(Object.entries(deployment(renders.defaults, 'api').spec.selector.matchLabels)),
    );
  });

  it('scales workers with KEDA on the task queue the pods use, only when enabled', () => {
    expect(ofKind(renders.defaults, 'ScaledObject')).toEqual([]);
    expect(deployment(renders.defaults, 'worker').spec.replicas).toBe(values.worker.replicas);
    const [scaled] = ofKind(renders.keda, 'ScaledObject');
    const settings = configMap(renders.keda);
    expect(scaled!.apiVersion).toBe('keda.sh/v1alpha1');
    expect(scaled!.spec.scaleTargetRef.name).toBe('tp-tenant-platform-worker');
    expect(scaled!.spec).toMatchObject({ minReplicaCount: 2, maxReplicaCount: 20 });
    const [trigger] = scaled!.spec.triggers;
    expect(trigger.type).toBe('temporal');
    expect(trigger.metadata).toMatchObject({
      endpoint: settings.TEMPORAL_ADDRESS,
      namespace: settings.TEMPORAL_NAMESPACE,
      taskQueue: settings.TEMPORAL_TASK_QUEUE,
      targetQueueSize: '10',
      workerDeploymentName: 'tenant-platform',
    });
    expect(trigger.authenticationRef).toEqual({ name: 'temporal-frontend-auth' });
    expect(deployment(renders.keda, 'worker').spec.replicas).toBeUndefined();
  });

  it('annotates every pod for Prometheus at the metrics port its container declares and its settings name', () => {
    for (const { objects } of each()) {
      const port = Number(configMap(objects).METRICS_PORT);
      for (const d of ofKind(objects, 'Deployment')) {
        const annotations = d.spec.template.metadata.annotations;
        expect(annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(port), 'prometheus.io/path': '/metrics' });
        expect((container(d).ports as K8sObject[]).find((p) => p.name === 'metrics')?.containerPort).toBe(port);
        expect(annotations['checksum/config']).toMatch(/^[0-9a-f]{64}$/);
      }
    }
  });
});
