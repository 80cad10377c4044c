import { describe, expect, it } from '@jest/globals';
import { renderInTestApp } from '@backstage/frontend-test-utils';
import { screen, within } from '@testing-library/react';
import { makeBackup, makeInstance } from '../../testUtils/FakeDatabasesApi';
import { buildTimeline, LifecycleTimeline } from './LifecycleTimeline';

const at = (m: number) => new Date(Date.UTC(2026, 11, 6, 10, m)).toISOString();

describe('the lifecycle timeline', () => {
  const instance = makeInstance({ name: 'orders-db-restored' }).instance;
  const restored = { ...instance, metadata: { ...instance.metadata, creationTimestamp: at(0) }, spec: { ...instance.spec, restoreFrom: { backup: 'orders-db-nightly' } } };
  const runs = [
    makeBackup({ name: 'run-ok', phase: 'Succeeded', startTime: at(10), completionTime: at(12) }),
    { ...makeBackup({ name: 'run-bad', phase: 'Failed', startTime: at(20), completionTime: at(21) }), status: { ...makeBackup({ name: 'run-bad', phase: 'Failed' }).status!, completionTime: at(21), reason: 'JobFailed', message: 'mariadb-dump: access denied' } },
    makeBackup({ name: 'run-now', phase: 'Running', startTime: at(30) }),
  ];

  it('places each backup run at its end (a running one at its start) and the restore at creation, newest first', () => {
    const entries = buildTimeline([{ cluster: 'dev', namespace: 'team-a', name: 'orders-db-restored', to: 'Ready', at: at(5) }], [], { backups: runs, instance: restored });
    expect(entries.map(e => [e.kind, e.at])).toEqual([
      ['backup', at(30)],
      ['backup', at(21)],
      ['backup', at(12)],
      ['transition', at(5)],
      ['restore', at(0)],
    ]);
    // an instance not made from a backup has no restore entry
    expect(buildTimeline([], [], { instance }).map(e => e.kind)).toEqual([]);
  });

  it("shows a run's phase in the backups' colours and a failure with the operator's words; the restore names its backup", async () => {
    await renderInTestApp(<LifecycleTimeline entries={buildTimeline([], [], { backups: runs, instance: restored })} />);
    const items = screen.getAllByTestId('timeline-entry');
    expect(items[1]).toHaveTextContent(/Backup run-bad\s*Failed\s*JobFailed: mariadb-dump: access denied/);
    expect(within(items[1]).getByTestId('phase-chip')).toHaveAttribute('data-tone', 'error');
    expect(within(items[2]).getByTestId('phase-chip')).toHaveAttribute('data-tone', 'ok');
    expect(items[3]).toHaveTextContent('Created: restored from backup orders-db-nightly');
  });
});
