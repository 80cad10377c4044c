import type { DatabaseInstanceSpec } from '@internal/plugin-databases-common';
import type { EngineRules } from './EngineRules';
import { type FieldCause, forbidden, immutable } from './FieldCause';
import { compareQuantities, parseQuantity } from './quantity';
import { compareVersions, majorOf, parseVersion } from './version';

/**
 * Refusals of spec changes the operator cannot carry out: engine and storage class never
 * change, topology changes only where it follows from the replica count, no version
 * downgrade, no storage shrink (and no growth where the operator does not resize volumes),
 * no scale-down where the operator refuses it. `next` is already validated on its own.
 */
export function checkUpdate(
  rules: EngineRules,
  next: DatabaseInstanceSpec,
  previous: DatabaseInstanceSpec,
): FieldCause[] {
  const causes: FieldCause[] = [];
  const { operator } = rules;
  if (next.engine !== previous.engine)
    causes.push(immutable('spec.engine', next.engine));

  const scaling =
    next.replicas !== undefined &&
    previous.replicas !== undefined &&
    next.replicas !== previous.replicas;
  if (scaling && next.replicas! < previous.replicas! && !rules.scaleDown)
    causes.push(
      forbidden(
        'spec.replicas',
        `scaling down from ${previous.replicas} to ${next.replicas} is not supported by ${operator}`,
      ),
    );

  if (next.topology !== previous.topology && previous.topology !== undefined) {
    const derived =
      rules.topologyForReplicas && next.replicas !== undefined
        ? rules.topologyForReplicas(next.replicas)
        : undefined;
    if (derived !== next.topology || !scaling)
      causes.push(
        forbidden(
          'spec.topology',
          `changing the topology from ${previous.topology} to ${next.topology} is not supported by ${operator}; create a new instance and move the data`,
        ),
      );
  }

  if (
    next.version &&
    previous.version &&
    parseVersion(previous.version) &&
    compareVersions(next.version, previous.version) < 0
  )
    causes.push(
      forbidden(
        'spec.version',
        `downgrade from ${previous.version} to ${next.version} is not supported by ${operator}`,
      ),
    );
  else if (
    rules.majorUpgradeRefusal &&
    next.version &&
    previous.version &&
    majorOf(next.version) !== undefined &&
    majorOf(previous.version) !== undefined &&
    majorOf(next.version) !== majorOf(previous.version)
  )
    causes.push(
      forbidden(
        'spec.version',
        `upgrading from ${previous.version} to ${next.version} crosses a major version: ${rules.majorUpgradeRefusal}`,
      ),
    );

  const nextClass = next.storage?.storageClassName ?? '';
  const previousClass = previous.storage?.storageClassName ?? '';
  if (nextClass !== previousClass)
    causes.push(
      forbidden(
        'spec.storage.storageClassName',
        `the storage class of existing volumes cannot be changed (from ${JSON.stringify(previousClass)} to ${JSON.stringify(nextClass)})`,
      ),
    );

  const nextSize = parseQuantity(next.storage?.size);
  const previousSize = parseQuantity(previous.storage?.size);
  if (nextSize && previousSize) {
    const order = compareQuantities(nextSize, previousSize);
    if (order < 0)
      causes.push(
        forbidden(
          'spec.storage.size',
          `shrinking storage from ${previousSize.text} to ${nextSize.text} is not supported: volumes can only grow`,
        ),
      );
    else if (order > 0 && !rules.storageGrowth)
      causes.push(
        forbidden(
          'spec.storage.size',
          `resizing storage from ${previousSize.text} to ${nextSize.text} is not supported by ${operator}`,
        ),
      );
  }
  return causes;
}
