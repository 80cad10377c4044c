import { ANNOTATION_READY_SPEC } from '@internal/plugin-databases-common';
import { rolloutSignature } from '../status/rolloutMemory';
import { InstanceRecorder, type InstanceRecorderOptions } from './InstanceRecorder';

/**
 * Keeps, on each operator object, the spec its instance had when last seen Ready
 * (`dbaas.platform.dev/ready-spec`), so that every apiserver replica, and one restarted in the
 * middle of a rollout, tells a rollout (Updating) from a fault (Degraded) the same way. Without
 * permission to patch, the replicas fall back on what each saw itself.
 */
export class ReadySpecRecorder extends InstanceRecorder {
  constructor(options: InstanceRecorderOptions) {
    super({
      ...options,
      what: 'the last Ready spec',
      record: instance =>
        instance.status?.phase === 'Ready' ? { annotation: ANNOTATION_READY_SPEC, value: rolloutSignature(instance) } : undefined,
    });
  }
}
