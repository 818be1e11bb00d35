// The mock server: a ChannelServer that answers each request from a ReplayBook, so the library's
// stdio and Streamable HTTP transports serve a recording as they would a real server.

import { isRequest, type Channel, type Frame, type JsonRpcResponse } from 'mcpwire';
import type { ChannelServer } from 'mcpwire/stdio';
import type { ReplayAnswer, ReplayBook } from './replay-book.ts';

/** A ChannelServer that also names tool schemas (the HTTP handler checks `Mcp-Param-*` with them). */
export interface ReplayServer extends ChannelServer {
  toolInputSchema(name: string): object | undefined;
}

/**
 * A server answering from `book`, on any number of channels at once (the book is shared: an
 * exchange used on one connection is used for all). Per channel, answers go out in the order the
 * requests came. Notifications from the client (`notifications/initialized`, cancellations) are
 * accepted and change nothing; responses to requests are ignored, since the mock sends none.
 */
export function createReplayServer(book: ReplayBook): ReplayServer {
  return {
    connect(channel: Channel) {
      let queue = Promise.resolve();
      const enqueue = (work: () => Promise<void>): void => {
        // A client that left makes sends fail: nothing is left to tell it.
        queue = queue.then(work).catch(() => {});
      };
      channel.open({
        handleFrame(frame: Frame) {
          enqueue(() => handleFrame(frame, book, channel));
        },
        handleClose() {},
      });
    },
    toolInputSchema: (name) => book.toolInputSchema(name),
  };
}

async function handleFrame(frame: Frame, book: ReplayBook, channel: Channel): Promise<void> {
  switch (frame.type) {
    case 'invalid':
      await channel.send(frame.response);
      return;
    case 'message':
      if (isRequest(frame.message)) await sendAnswer(book.answer(frame.message), channel);
      return;
    case 'batch': {
      // A 2025-03-26 batch: its responses go back as one batch, its notifications around it.
      const answers: ReplayAnswer[] = [];
      const responses: JsonRpcResponse[] = [];
      for (const item of frame.items) {
        if (item.type === 'invalid') responses.push(item.response);
        else if (isRequest(item.message)) {
          const answer = book.answer(item.message);
          answers.push(answer);
          responses.push(answer.response);
        }
      }
      for (const answer of answers) for (const before of answer.before) await channel.send(before);
      if (responses.length > 0) await channel.send(responses);
      for (const answer of answers) for (const after of answer.after) await channel.send(after);
    }
  }
}

/**
 * Sends one answer: the notifications that came before the recorded response on that request's
 * stream (HTTP-13), the response, then the ones that came after it, unrelated to the request (over
 * HTTP they go to the session's GET stream, if the client opened one, HTTP-17).
 */
async function sendAnswer(answer: ReplayAnswer, channel: Channel): Promise<void> {
  const related = { relatedRequestId: answer.response.id! };
  for (const notification of answer.before) await channel.send(notification, related);
  await channel.send(answer.response, related);
  for (const notification of answer.after) await channel.send(notification);
}
