import { parseEntityRef } from '@backstage/catalog-model';
import { EntityRefLink } from '@backstage/plugin-catalog-react';

/** An owner entity ref as a catalog link, or as plain text when it does not parse. */
export function OwnerLink(props: { entityRef: string }) {
  try {
    return <EntityRefLink entityRef={parseEntityRef(props.entityRef, { defaultKind: 'group' })} defaultKind="group" />;
  } catch {
    return <>{props.entityRef}</>;
  }
}
