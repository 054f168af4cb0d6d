/**
 * The script of the clinic-booking agent that the agent double (`agent.ts`) plays: a pure
 * function from the caller's turns so far to the agent's next turn. It replays the whole call on
 * every request, so the double keeps no state between turns, as a stateless agent behind a
 * chat-completions endpoint would.
 */

/** What the clinic charges, in dollars. */
export const CLINIC_PRICES = {
  'general checkup': 90,
  'dental cleaning': 120,
  'flu shot': 35,
  'physiotherapy session': 75,
} as const;
/** A service the clinic books, named as callers say it. */
export type ClinicService = keyof typeof CLINIC_PRICES;

/** The agent's first turn, said before the caller speaks. */
export const CLINIC_GREETING =
  'Thank you for calling Riverside Clinic, this is Riley. How can I help you today?';
/** The agent's last turn, after which it hangs up. */
export const CLINIC_GOODBYE = 'Thank you for calling Riverside Clinic. Goodbye!';

/** The price the agent quotes for `wrongPriceService`: the right one plus $45. */
export const wrongPriceOf = (service: ClinicService) => CLINIC_PRICES[service] + 45;

/** How this call goes wrong, if it does (decided per call by the double). */
export type ClinicBehaviour = { skipReadback: boolean; wrongPriceService: ClinicService | null };

/** Where the booking stands: the question the agent asked last, or `booked` / `ended`. */
export type ClinicStep = 'greeted' | 'offered' | 'ask_name' | 'ask_date' | 'readback' | 'booked' | 'ended';

/** What the agent knows after a turn. */
export type ClinicState = {
  step: ClinicStep;
  service: ClinicService | null;
  name: string | null;
  date: string | null;
  booked: boolean;
  /** Whether the date was read back and confirmed before booking. */
  readBack: boolean;
  quotes: Array<{ service: ClinicService; price: number; correct: boolean }>;
};

/** The agent's next turn. */
export type ClinicReply = { text: string; endCall: boolean; state: ClinicState };

const SERVICES = Object.keys(CLINIC_PRICES) as ClinicService[];
const ANYTHING_ELSE = 'Is there anything else I can help you with?';
const QUESTION: Partial<Record<ClinicStep, string>> = {
  offered: 'Would you like to book an appointment?',
  ask_name: 'May I have your name, please?',
  ask_date: 'What date would you like to come in?',
  booked: ANYTHING_ELSE,
};

const serviceIn = (text: string) => SERVICES.find((s) => text.toLowerCase().includes(s)) ?? null;
const asksPrice = (text: string) => /\b(how much|prices?|costs?)\b/i.test(text);
const wantsBooking = (text: string) => /\b(book|appointment|schedule|come in)\b/i.test(text);
const saysGoodbye = (text: string) => /\b(bye|goodbye|that's all|nothing else)\b/i.test(text);
const confirms = (text: string) =>
  /^(yes|yeah|yep|correct|right|that's (right|correct))\b/i.test(text.trim());

/** The caller's answer with the usual lead-in and trailing punctuation taken off. */
const stripLeadIn = (text: string, leadIn: RegExp) =>
  text
    .trim()
    .replace(leadIn, '')
    .replace(/(,? please)?[.!?]*$/i, '')
    .trim();
const nameOf = (text: string) => stripLeadIn(text, /^(my name is|my name's|it's|it is|this is|i'm|i am)\s+/i);
const dateOf = (text: string) =>
  stripLeadIn(text, /^(i'd like|i would like|could i come in|can i come in|how about)(\s+(on|for))?\s+/i);

const priceSentence = (state: ClinicState, text: string, behaviour: ClinicBehaviour) => {
  const service = serviceIn(text) ?? state.service;
  if (!service) {
    return `We offer ${SERVICES.map((s) => `a ${s} for $${CLINIC_PRICES[s]}`).join(', ')}.`;
  }
  const correct = behaviour.wrongPriceService !== service;
  const price = correct ? CLINIC_PRICES[service] : wrongPriceOf(service);
  state.quotes.push({ service, price, correct });
  return `A ${service} costs $${price}.`;
};

/** Moves the call on by one caller turn; returns the agent's answer. */
const answer = (state: ClinicState, text: string, behaviour: ClinicBehaviour): string => {
  state.service = serviceIn(text) ?? state.service;
  if (state.step !== 'readback' && state.step !== 'ended' && asksPrice(text)) {
    const step = state.step === 'greeted' ? 'offered' : state.step;
    state.step = step;
    return `${priceSentence(state, text, behaviour)} ${QUESTION[step]}`;
  }
  switch (state.step) {
    case 'greeted':
    case 'offered':
      if (saysGoodbye(text)) break;
      if (!wantsBooking(text) && !(state.step === 'offered' && confirms(text))) {
        state.step = 'offered';
        return `I can book appointments and tell you our prices. ${QUESTION.offered}`;
      }
      state.step = 'ask_name';
      return `Sure, I can help you book an appointment. ${QUESTION.ask_name}`;
    case 'ask_name':
      state.name = nameOf(text);
      state.step = 'ask_date';
      return `Thanks, ${state.name}. ${QUESTION.ask_date}`;
    case 'ask_date':
      state.date = dateOf(text);
      if (behaviour.skipReadback) {
        Object.assign(state, { step: 'booked', booked: true });
        return `All right, you're booked, ${state.name}. ${ANYTHING_ELSE}`;
      }
      state.step = 'readback';
      return `So that's ${state.date}, correct?`;
    case 'readback':
      if (!confirms(text)) {
        state.step = 'ask_date';
        return `Sorry about that. ${QUESTION.ask_date}`;
      }
      Object.assign(state, { step: 'booked', booked: true, readBack: true });
      return `Great, you're booked for ${state.date}. ${ANYTHING_ELSE}`;
    case 'booked':
      if (saysGoodbye(text) || /^no\b/i.test(text.trim())) break;
      return ANYTHING_ELSE;
    case 'ended':
      break;
  }
  state.step = 'ended';
  return CLINIC_GOODBYE;
};

/**
 * The agent's next turn after these caller turns (oldest first; none: the greeting). It greets,
 * asks what the caller needs, their name and date, reads the date back (unless `skipReadback`),
 * books, answers price questions at any point, and hangs up after the caller says goodbye.
 */
export const nextClinicTurn = (callerTurns: readonly string[], behaviour: ClinicBehaviour): ClinicReply => {
  const state: ClinicState = {
    step: 'greeted',
    service: null,
    name: null,
    date: null,
    booked: false,
    readBack: false,
    quotes: [],
  };
  let text = CLINIC_GREETING;
  for (const turn of callerTurns) text = answer(state, turn, behaviour);
  return { text, endCall: state.step === 'ended', state };
};
