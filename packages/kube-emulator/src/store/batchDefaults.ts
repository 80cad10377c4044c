type Obj = Record<string, any>;

const isBatch = (def: { group: string; plural: string }, plural: string) =>
  def.group === 'batch' && def.plural === plural;

/**
 * The labels kube-apiserver puts on a Job's selector and pod template when the client leaves
 * `manualSelector` unset (generateSelector, pkg/registry/batch/job/strategy.go): keyed by the
 * Job's uid, so each Job owns exactly its pods.
 */
function jobSelectorLabels(obj: Obj, uid: string): Record<string, string> {
  return {
    'batch.kubernetes.io/controller-uid': uid,
    'batch.kubernetes.io/job-name': String(obj.metadata?.name ?? ''),
    'controller-uid': uid,
    'job-name': String(obj.metadata?.name ?? ''),
  };
}

/** SetDefaults_Job (pkg/apis/batch/v1/defaults.go) for the fields clients read back. */
function defaultJobSpec(spec: Obj): void {
  spec.parallelism ??= 1;
  spec.completions ??= 1;
  spec.backoffLimit ??= 6;
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= 'TerminatingOrFailed';
  spec.template ??= {};
  spec.template.spec ??= {};
  spec.template.spec.restartPolicy ??= 'Always';
}

/**
 * A Job or CronJob as kube-apiserver stores it on create: the Job's generated selector and
 * template labels (given the uid it is about to get), its spec defaults and an empty status;
 * a CronJob's defaults (SetDefaults_CronJob). Other kinds are left alone.
 */
export function prepareBatchForCreate(
  def: { group: string; plural: string },
  obj: Obj,
  uid: string,
): void {
  if (isBatch(def, 'jobs')) {
    obj.spec ??= {};
    defaultJobSpec(obj.spec);
    if (!obj.spec.selector) {
      const labels = jobSelectorLabels(obj, uid);
      obj.spec.selector = {
        matchLabels: { 'batch.kubernetes.io/controller-uid': uid },
      };
      obj.spec.template.metadata ??= {};
      obj.spec.template.metadata.labels = {
        ...obj.spec.template.metadata.labels,
        ...labels,
      };
    }
    obj.status = {};
  }
  if (isBatch(def, 'cronjobs')) {
    obj.spec ??= {};
    obj.spec.concurrencyPolicy ??= 'Allow';
    obj.spec.suspend ??= false;
    obj.spec.successfulJobsHistoryLimit ??= 3;
    obj.spec.failedJobsHistoryLimit ??= 1;
    obj.spec.jobTemplate ??= {};
    obj.spec.jobTemplate.spec ??= {};
    const t = obj.spec.jobTemplate.spec;
    t.template ??= {};
    t.template.spec ??= {};
    t.template.spec.restartPolicy ??= 'Always';
    obj.status = {};
  }
}
