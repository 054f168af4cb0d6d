import { describe, expect, it } from 'vitest';
import { parseRubric } from './rubric-parser.js';

const PLAIN = `Objection handling rubric

Label #1
Name: Price objection
Definition: The caller says the price is too high
or asks for a discount.
Examples:
- "That's way too expensive"
- "Can you do any better on price?"

Label #2
Name: Timing objection
Definition: The caller wants to postpone the decision.
Examples:
- "Call me next quarter"
`;

const MARKDOWN = [
  '# Compliance rubric',
  '',
  'Use these labels for every call.',
  '',
  '## Label #1: Missing disclosure',
  '**Definition:** The agent does not state that the call is recorded.',
  '',
  '**Examples:**',
  '1. Agent starts with the offer right away',
  '2) Agent never mentions recording',
  '',
  '---',
  '',
  '### Label #2 \u2014 *Unverified identity*',
  '',
  '#### Definition',
  'The agent shares account details before verifying the caller.',
  '',
  'Verification means two of: date of birth, postcode, last payment.',
  '',
  '#### Examples',
  '* "Your balance is 240 pounds" before any question',
].join('\r\n');

const BULLETED = `- **Label #1**
  - Name: Greets by name
  - Description: Uses the caller's name in the first two turns.
  - Example phrases: "Hi Sam"; "Good morning, Ms Lee"
- **Label #2**
  - Name: Offers further help
  - Description: Asks whether anything else is needed before closing.
  - Examples: "Anything else I can help with?" | "Is there something else?"`;

const INLINE = `1. Label #1 - Escalation request
Caller asks to speak with a human, a manager or a supervisor.
e.g. "let me talk to a real person"

2. Label #2: Cancellation intent
The caller states they want to cancel the service.
For example: "I want to close my account"

3. Label #3 (Repeated question)`;

const QUOTED = `> Label #1
> Label name: Empathy statement
> Meaning: The agent acknowledges the caller's frustration explicitly.
> Samples:
> \u201cI understand how frustrating that is\u201d
> \u201cI'm sorry you had to wait\u201d

Label #7
Title: \`hold_etiquette\`
Criteria: Asks permission before placing the caller on hold.`;

describe('parseRubric', () => {
  it('reads plain key: value blocks, joining wrapped definition lines and ignoring the title', () => {
    expect(parseRubric(PLAIN)).toEqual([
      {
        number: 1,
        name: 'Price objection',
        definition: 'The caller says the price is too high or asks for a discount.',
        examples: ["That's way too expensive", 'Can you do any better on price?'],
      },
      {
        number: 2,
        name: 'Timing objection',
        definition: 'The caller wants to postpone the decision.',
        examples: ['Call me next quarter'],
      },
    ]);
  });

  it('reads markdown headings, bold keys, numbered and bulleted examples, rules and CRLF', () => {
    const labels = parseRubric(MARKDOWN);
    expect(labels).toEqual([
      {
        number: 1,
        name: 'Missing disclosure',
        definition: 'The agent does not state that the call is recorded.',
        examples: ['Agent starts with the offer right away', 'Agent never mentions recording'],
      },
      {
        number: 2,
        name: 'Unverified identity',
        definition:
          'The agent shares account details before verifying the caller.\n\nVerification means two of: date of birth, postcode, last payment.',
        examples: ['"Your balance is 240 pounds" before any question'],
      },
    ]);
    expect(JSON.stringify(labels)).not.toContain('\r');
  });

  it('reads nested bullets with several examples on one line', () => {
    expect(parseRubric(BULLETED)).toEqual([
      {
        number: 1,
        name: 'Greets by name',
        definition: "Uses the caller's name in the first two turns.",
        examples: ['Hi Sam', 'Good morning, Ms Lee'],
      },
      {
        number: 2,
        name: 'Offers further help',
        definition: 'Asks whether anything else is needed before closing.',
        examples: ['Anything else I can help with?', 'Is there something else?'],
      },
    ]);
  });

  it('takes names from the header line and free text as the definition', () => {
    expect(parseRubric(INLINE)).toEqual([
      {
        number: 1,
        name: 'Escalation request',
        definition: 'Caller asks to speak with a human, a manager or a supervisor.',
        examples: ['let me talk to a real person'],
      },
      {
        number: 2,
        name: 'Cancellation intent',
        definition: 'The caller states they want to cancel the service.',
        examples: ['I want to close my account'],
      },
      { number: 3, name: 'Repeated question', definition: '', examples: [] },
    ]);
  });

  it('reads block quotes, alternative key names, curly quotes and code marks', () => {
    expect(parseRubric(QUOTED)).toEqual([
      {
        number: 1,
        name: 'Empathy statement',
        definition: "The agent acknowledges the caller's frustration explicitly.",
        examples: ['I understand how frustrating that is', "I'm sorry you had to wait"],
      },
      {
        number: 7,
        name: 'hold_etiquette',
        definition: 'Asks permission before placing the caller on hold.',
        examples: [],
      },
    ]);
  });

  it('names a block without a name after its number, and finds nothing in text without blocks', () => {
    expect(parseRubric('Label #4\nDefinition: Silence longer than ten seconds.')).toEqual([
      { number: 4, name: 'Label 4', definition: 'Silence longer than ten seconds.', examples: [] },
    ]);
    expect(parseRubric('Just a paragraph about labels.\nName: not in a block')).toEqual([]);
  });
});
