import { describe, expect, it } from 'vitest';
import { unifySpeakerLabels } from './same-speaker.js';

const shown = (labels: string[]) => Object.fromEntries(unifySpeakerLabels(labels));

describe('unifySpeakerLabels: one speaker per person', () => {
  it('joins a name with the same name and a note in brackets, keeping the fuller label', () => {
    expect(shown(['Alex (Sales Manager)', 'Priya', 'Alex', 'Priya', 'Alex'])).toEqual({ 'Alex (Sales Manager)': 'Alex (Sales Manager)', Priya: 'Priya', Alex: 'Alex (Sales Manager)' });
    expect(shown(['Alex', 'Priya', 'Alex (Sales Manager)'])).toMatchObject({ Alex: 'Alex (Sales Manager)' });
  });

  it('joins spellings that differ in case, accents, spacing or punctuation, keeping the one used most', () => {
    expect(shown(['Alex', 'ALEX', 'Alex', 'José  García', 'JOSE GARCIA', 'Speaker 1', 'speaker-1', 'Speaker 1'])).toEqual({
      Alex: 'Alex',
      ALEX: 'Alex',
      'José  García': 'José  García',
      'JOSE GARCIA': 'José  García',
      'Speaker 1': 'Speaker 1',
      'speaker-1': 'Speaker 1',
    });
  });

  it('keeps the first spelling among equally used ones', () => {
    expect(shown(['ALEX', 'Alex'])).toEqual({ ALEX: 'ALEX', Alex: 'ALEX' });
  });

  it('joins a name with the same name after a title', () => {
    expect(shown(['Ana Lopez', 'Dr. Ana Lopez', 'Ana Lopez'])).toEqual({ 'Ana Lopez': 'Dr. Ana Lopez', 'Dr. Ana Lopez': 'Dr. Ana Lopez' });
    expect(shown(['Dr Ana Lopez', 'Ana Lopez (Acme)'])).toEqual({ 'Dr Ana Lopez': 'Dr Ana Lopez', 'Ana Lopez (Acme)': 'Dr Ana Lopez' });
  });

  it('keeps a role with a name in brackets and the bare role together', () => {
    expect(shown(['Customer (Jane)', 'Agent', 'Customer'])).toEqual({ 'Customer (Jane)': 'Customer (Jane)', Agent: 'Agent', Customer: 'Customer (Jane)' });
  });

  it('keeps namesakes told apart by their notes or titles apart, and a bare name beside them too', () => {
    expect(shown(['Alex (Acme)', 'Alex (Globex)', 'Alex', 'ALEX (acme)'])).toEqual({
      'Alex (Acme)': 'Alex (Acme)',
      'Alex (Globex)': 'Alex (Globex)',
      Alex: 'Alex',
      'ALEX (acme)': 'Alex (Acme)',
    });
    expect(shown(['Mr. Lopez', 'Mrs. Lopez', 'Lopez'])).toEqual({ 'Mr. Lopez': 'Mr. Lopez', 'Mrs. Lopez': 'Mrs. Lopez', Lopez: 'Lopez' });
  });

  it('never joins a first name to a full name, nor different numbers or roles', () => {
    expect(shown(['Ana', 'Ana Lopez', 'Agent 1', 'Agent 2', 'Agent', 'Customer'])).toEqual({
      Ana: 'Ana',
      'Ana Lopez': 'Ana Lopez',
      'Agent 1': 'Agent 1',
      'Agent 2': 'Agent 2',
      Agent: 'Agent',
      Customer: 'Customer',
    });
  });

  it('leaves a title alone as a name of its own', () => {
    expect(shown(['Dr.', 'Dr. Ana Lopez'])).toEqual({ 'Dr.': 'Dr.', 'Dr. Ana Lopez': 'Dr. Ana Lopez' });
  });
});
