import { describe, expect, it } from 'vitest';
import { parsePocketSphinxWords } from './pocketsphinx-engine.js';

// What `pocketsphinx_continuous -time yes` printed for two utterances of one input.
const OUTPUT = `he was not an illness those young man
<s> 0.000 0.060 0.999500
<sil> 0.070 0.200 0.694306
he 0.210 0.320 0.998701
was(2) 0.330 0.540 0.999800
[SPEECH] 0.980 1.100 0.535598
an(2) 1.110 1.290 0.472940
</s> 2.800 3.090 1.000000
he might even have been made the amiable himself
<s> 5.870 5.970 0.999800
even 6.630 6.910 1.000100
i'm(2) 8.290 8.400 0.044750
himself 8.270 9.000 0.836172
</s> 9.010 9.270 1.000000
`;

describe('parsePocketSphinxWords', () => {
  it('reads the timed words, without fillers or pronunciation numbers, ending one frame after the last', () => {
    expect(parsePocketSphinxWords(OUTPUT)).toEqual([
      { text: 'he', startMs: 210, endMs: 330, confidence: 0.998701 },
      { text: 'was', startMs: 330, endMs: 550, confidence: 0.9998 },
      { text: 'an', startMs: 1110, endMs: 1300, confidence: 0.47294 },
      { text: 'even', startMs: 6630, endMs: 6920, confidence: 1 },
      { text: "i'm", startMs: 8290, endMs: 8410, confidence: 0.04475 },
      { text: 'himself', startMs: 8270, endMs: 9010, confidence: 0.836172 },
    ]);
  });

  it('keeps times within the audio', () => {
    expect(parsePocketSphinxWords('late 2.990 3.100 0.5\nlater 3.200 3.300 0.5\n', 3_000)).toEqual([
      { text: 'late', startMs: 2990, endMs: 3000, confidence: 0.5 },
      { text: 'later', startMs: 3000, endMs: 3000, confidence: 0.5 },
    ]);
  });

  it('ignores hypothesis lines and anything else', () => {
    expect(parsePocketSphinxWords('a b c d\n\nINFO: something 1 2 3\nword 1.0 two 0.5\n')).toEqual([]);
  });
});
