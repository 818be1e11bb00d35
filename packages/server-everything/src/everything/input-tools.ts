// The everything server's multi-round-trip fixtures (2026-07-28, S26-MRTR): tools and a prompt that
// ask the client for input with stable keys. Written once; in the handshake era the same handlers
// send real elicitation, sampling and roots requests instead.

import type { ElicitRequestFormParams, JsonObject } from 'mcpwire';
import type { RequestContext, Server } from 'mcpwire/server';

const NO_ARGUMENTS = { type: 'object', properties: {} } as const;

const NAME_FORM: ElicitRequestFormParams = {
  mode: 'form',
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
};

const CONFIRM_FORM: ElicitRequestFormParams = {
  mode: 'form',
  message: 'Please confirm',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
};

function askName(ctx: RequestContext): Promise<string> {
  return ctx
    .elicit(NAME_FORM, { key: 'user_name' })
    .then((answer) =>
      answer.action === 'accept' ? String(answer.content?.name ?? 'anonymous') : 'anonymous',
    );
}

async function askCapital(ctx: RequestContext, key: string, question: string): Promise<string> {
  const result = await ctx.sample(
    { messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 100 },
    { key },
  );
  const blocks = Array.isArray(result.content) ? result.content : [result.content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('');
}

async function askRoots(ctx: RequestContext): Promise<string> {
  const { roots } = await ctx.listRoots({ key: 'client_roots' });
  return roots.length === 0 ? '(none)' : roots.map((root) => root.uri).join(', ');
}

/** Registers the input-request fixtures (`test_input_required_result_*`). */
export function registerInputTools(server: Server): void {
  const tool = (
    name: string,
    description: string,
    handler: (ctx: RequestContext) => Promise<string>,
  ): void => {
    server.tool({ name, description, inputSchema: NO_ARGUMENTS }, (_args, ctx) => handler(ctx));
  };
  tool(
    'test_input_required_result_elicitation',
    'Asks for the user’s name (input key user_name), then greets them.',
    async (ctx) => `Hello, ${await askName(ctx)}!`,
  );
  tool(
    'test_input_required_result_sampling',
    'Asks the client’s model a question (input key capital_question).',
    async (ctx) =>
      `Model answered: ${await askCapital(ctx, 'capital_question', 'What is the capital of France?')}`,
  );
  tool(
    'test_input_required_result_list_roots',
    'Lists the client’s roots (input key client_roots).',
    async (ctx) => `Roots: ${await askRoots(ctx)}`,
  );
  const confirmed = async (ctx: RequestContext): Promise<string> => {
    const answer = await ctx.elicit(CONFIRM_FORM, { key: 'confirm' });
    return answer.action === 'accept' && answer.content?.ok === true
      ? 'state-ok: the confirmation came back through the sealed requestState'
      : `Not confirmed (${answer.action}).`;
  };
  tool(
    'test_input_required_result_request_state',
    'Asks for a confirmation (input key confirm) carried in an integrity-protected requestState.',
    confirmed,
  );
  tool(
    'test_input_required_result_tampered_state',
    'Like the request-state fixture: a tampered requestState is rejected with -32602.',
    confirmed,
  );
  tool(
    'test_input_required_result_multiple_inputs',
    'Asks for a name, a sampled greeting and the roots in one round.',
    async (ctx) => {
      const [name, greeting, roots] = await Promise.all([
        askName(ctx),
        askCapital(ctx, 'greeting', 'Write a one-line greeting.'),
        askRoots(ctx),
      ]);
      return `Name: ${name}; greeting: ${greeting}; roots: ${roots}`;
    },
  );
  tool('test_input_required_result_multi_round', 'Asks in two rounds: step1, then step2.', async (ctx) => {
    const first = await ctx.elicit(
      {
        mode: 'form',
        message: 'Step 1: pick a colour',
        requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } },
      },
      { key: 'step1' },
    );
    const second = await ctx.elicit(
      {
        mode: 'form',
        message: 'Step 2: pick a size',
        requestedSchema: { type: 'object', properties: { size: { type: 'string' } } },
      },
      { key: 'step2' },
    );
    return `Completed both rounds: step1=${first.action}, step2=${second.action}`;
  });
  tool(
    'test_input_required_result_capabilities',
    'Asks only for the inputs the request’s client capabilities allow.',
    async (ctx) => {
      const caps = ctx.clientCapabilities;
      const asked: Array<Promise<string>> = [];
      if (caps.elicitation) asked.push(askName(ctx));
      if (caps.sampling) asked.push(askCapital(ctx, 'capital_question', 'What is the capital of France?'));
      if (caps.roots) asked.push(askRoots(ctx));
      return asked.length === 0
        ? 'The client declared no input capability.'
        : `Answers: ${(await Promise.all(asked)).join('; ')}`;
    },
  );
  server.prompt(
    {
      name: 'test_input_required_result_prompt',
      description: 'A prompt that first asks the user for context (input key user_context).',
    },
    async (_args, ctx) => {
      const answer = await ctx.elicit(
        {
          mode: 'form',
          message: 'What should the prompt be about?',
          requestedSchema: { type: 'object', properties: { context: { type: 'string' } } },
        },
        { key: 'user_context' },
      );
      const topic =
        answer.action === 'accept'
          ? String((answer.content as JsonObject | undefined)?.context ?? 'anything')
          : 'anything';
      return [{ role: 'user', content: { type: 'text', text: `Please help with: ${topic}` } }];
    },
  );
}
