import { describe, expect, it } from 'vitest';
import { adjustedRandIndex } from './ari.js';
import { clusterItems, type TextItem } from './cluster-items.js';

/** Three clear failure modes with a few wordings each, and a sub-mode split inside the first. */
const MODES: Record<string, string[]> = {
  readback: [
    'The agent never read back the appointment time to the caller.',
    'Appointment time was not confirmed or repeated back before hanging up.',
    'Did not repeat the appointment time back; no confirmation of the slot.',
    'The booked appointment time was never confirmed with the caller.',
    'No read-back of the appointment date and time at the end.',
    'Agent skipped confirming the appointment time and date.',
    'The agent forgot to confirm the appointment date with the caller.',
    'Appointment date never confirmed; the caller had to ask again.',
  ],
  price: [
    'Quoted an incorrect price for teeth whitening.',
    'The price given for the cleaning was wrong and outdated.',
    'Told the caller a wrong price for an x-ray.',
    'Incorrect price stated for the check-up compared with the price list.',
    'Gave an outdated price for whitening.',
    'The quoted price for a filling did not match the price list.',
  ],
  tool: [
    'The calendar lookup returned an error and the booking stopped.',
    'Calendar integration error; the agent could not recover.',
    'The scheduling calendar failed with an error mid-call.',
    'Booking calendar lookup failed and the agent gave up.',
    'A calendar API error ended the booking attempt.',
  ],
};

const items = (): Array<TextItem & { mode: string }> =>
  Object.entries(MODES).flatMap(([mode, texts]) =>
    texts.map((text, i) => ({ id: `${mode}-${String(i).padStart(2, '0')}`, text, mode })),
  );

describe('clusterItems', () => {
  it('recovers the failure modes (adjusted Rand index 1) with readable labels', () => {
    const input = items();
    const clusters = clusterItems(input);
    const clusterOf = new Map(clusters.flatMap((c) => c.memberIds.map((id) => [id, c.id])));
    expect(
      adjustedRandIndex(
        input.map((i) => i.mode),
        input.map((i) => clusterOf.get(i.id)),
      ),
    ).toBe(1);
    expect(clusters.map((c) => c.memberIds.length)).toEqual([8, 6, 5]);
    expect(clusters[0]?.label.toLowerCase()).toMatch(/appointment|confirm|time|date/);
    expect(clusters[1]?.label.toLowerCase()).toContain('price');
    expect(clusters[2]?.label.toLowerCase()).toMatch(/calendar|error/);
  });

  it('is deterministic and independent of input order', () => {
    const input = items();
    const a = clusterItems(input, { namespace: 'm1' });
    const b = clusterItems([...input].reverse(), { namespace: 'm1' });
    expect(b).toEqual(a);
  });

  it('keeps cluster ids when members change but the topic does not, and scopes them by namespace', () => {
    const input = items();
    const before = clusterItems(input, { namespace: 'm1' });
    const after = clusterItems(
      input.filter((item) => item.id !== 'price-05'),
      { namespace: 'm1' },
    );
    expect(after.map((c) => c.id)).toEqual(before.map((c) => c.id));
    const other = clusterItems(input, { namespace: 'm2' });
    expect(other.map((c) => c.id)).not.toEqual(before.map((c) => c.id));
    expect(new Set(before.map((c) => c.id)).size).toBe(before.length);
  });

  it('finds sub-clusters inside a large cluster that has distinct sub-modes', () => {
    const time = Array.from({ length: 6 }, (_, i) => ({
      id: `t${i}`,
      text: `Appointment time never confirmed with the caller, variant ${['one', 'two', 'three', 'four', 'five', 'six'][i]}.`,
    }));
    const date = Array.from({ length: 6 }, (_, i) => ({
      id: `d${i}`,
      text: `Appointment date was wrong on the booking, ${['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'][i]} instead.`,
    }));
    const [top] = clusterItems([...time, ...date], { maxClusters: 1 });
    expect(top?.memberIds).toHaveLength(12);
    expect(top?.subClusters).toHaveLength(2);
    const subOf = new Map(top?.subClusters.flatMap((s) => s.memberIds.map((id) => [id, s.id])));
    expect(new Set(time.map((t) => subOf.get(t.id))).size).toBe(1);
    expect(subOf.get('t0')).not.toBe(subOf.get('d0'));
    expect(top?.subClusters.every((s) => s.id.startsWith('sc_') && s.label.length > 0)).toBe(true);
  });

  it('handles tiny inputs: none, one, and two unrelated texts', () => {
    expect(clusterItems([])).toEqual([]);
    const [only] = clusterItems([{ id: 'x', text: 'The agent was rude to the caller.' }]);
    expect(only?.memberIds).toEqual(['x']);
    expect(only?.subClusters).toEqual([]);
    const two = clusterItems([
      { id: 'a', text: 'Wrong price for whitening.' },
      { id: 'b', text: 'Calendar lookup error during booking.' },
    ]);
    expect(two).toHaveLength(2);
  });
});
