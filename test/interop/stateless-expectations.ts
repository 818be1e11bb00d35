// What the tours of `mcpwire serve everything` share across transports and SDKs: the known official
// SDK progress race, the stateless-era `_meta` keys, and the multi-round-trip fixtures with their rounds.

import { CLIENT_ROOTS, SAMPLED_TEXT } from './our-everything-expectations.ts';

export const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';
export const SUBSCRIPTION_ID_KEY = 'io.modelcontextprotocol/subscriptionId';
export { KNOWN_PROGRESS_RACE } from '../support/sdk-known-issues.ts';
export const ROOT_URIS = CLIENT_ROOTS.map((root) => root.uri).join(', ');

/** The multi-round-trip fixtures, the input keys each round asks for, and the final text. */
export const INPUT_FIXTURES: Record<string, { rounds: string[][]; text: string }> = {
  test_input_required_result_elicitation: { rounds: [['user_name']], text: 'Hello, Ada!' },
  test_input_required_result_sampling: {
    rounds: [['capital_question']],
    text: `Model answered: ${SAMPLED_TEXT}`,
  },
  test_input_required_result_list_roots: { rounds: [['client_roots']], text: `Roots: ${ROOT_URIS}` },
  test_input_required_result_multiple_inputs: {
    rounds: [['user_name', 'greeting', 'client_roots']],
    text: `Name: Ada; greeting: ${SAMPLED_TEXT}; roots: ${ROOT_URIS}`,
  },
  test_input_required_result_multi_round: {
    rounds: [['step1'], ['step2']],
    text: 'Completed both rounds: step1=accept, step2=accept',
  },
};
