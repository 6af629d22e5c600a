import { describe, expect, it } from 'vitest';
import { packTreatments, unpackTreatments, type DirectoryServiceChoice } from './treatment-choices.ts';

const choices: DirectoryServiceChoice[] = [
  { id: 184, name: 'CoolSculpting', spaName: 'Lakeview Sculpt Studio', category: 'body', priceLabel: 'From $750.00 per area' },
  { id: 7, name: 'Botox "baby" & lip flip', spaName: "O'Neill <Aesthetics>", category: 'injectable', priceLabel: 'Complimentary' },
];

describe('the directory’s treatment list as the request form’s props', () => {
  it('comes back as it went, quotes, ampersands and angle brackets included', () => {
    expect(unpackTreatments(packTreatments(choices))).toEqual(choices);
  });

  it('is far smaller than the same list as JSON, and has no quote to escape', () => {
    const packed = packTreatments(choices);
    expect(packed.length).toBeLessThan(JSON.stringify(choices).length * 0.6);
    expect(packed.split('\n')[0]).toBe('184\tCoolSculpting\tLakeview Sculpt Studio\tbody\tFrom $750.00 per area');
  });

  it('keeps each treatment on its own line when a name carries a tab or a line break', () => {
    const odd = [{ ...choices[0]!, name: 'Laser\tgenesis\r\nfull face' }, choices[1]!];
    expect(unpackTreatments(packTreatments(odd))).toEqual([{ ...choices[0]!, name: 'Laser genesis full face' }, choices[1]]);
  });

  it('is an empty list when there is none', () => {
    expect(packTreatments([])).toBe('');
    expect(unpackTreatments('')).toEqual([]);
  });
});
