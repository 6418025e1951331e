/**
 * Answers to the synchronous `assistant-request` webhook. The provider routes the
 * inbound call to `assistantId`, or speaks `error` to the caller and hangs up.
 */
export const UNKNOWN_NUMBER_SENTENCE = 'Sorry, this number is not available right now. Goodbye.';

export type AssistantRequestAnswer = { assistantId: string } | { error: string };

export function routeToAssistant(assistantId: string): AssistantRequestAnswer {
  return { assistantId };
}

export function declineCall(sentence: string = UNKNOWN_NUMBER_SENTENCE): AssistantRequestAnswer {
  return { error: sentence };
}
