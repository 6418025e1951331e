/**
 * Request validation of the stand-in, modelled on the provider's DTOs (CreateCallDto,
 * CreateCustomerDto, Create*PhoneNumberDto): unknown properties are rejected as
 * "property X should not exist", like the provider's whitelisting validator does, so a
 * client that misspells a field fails here as it would in production.
 */
export type JsonMap = Record<string, unknown>;
export type Checked = { ok: true; value: JsonMap } | { ok: false; messages: string[] };

const E164 = /^\+[1-9]\d{1,14}$/;
const E164_MESSAGE = 'must be a valid phone number in the E.164 format. Hot tip, you may be missing the country code (Eg. US: +1).';

const isMap = (v: unknown): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);

const CALL_KEYS = new Set([
  'assistantVersion', 'transport', 'customers', 'name', 'schedulePlan', 'assistantId', 'assistant',
  'assistantOverrides', 'squadId', 'squad', 'squadOverrides', 'workflowId', 'workflow', 'workflowOverrides',
  'phoneNumberId', 'phoneNumber', 'customerId', 'customer',
]);
const CUSTOMER_KEYS = new Set([
  'numberE164CheckEnabled', 'extension', 'assistantOverrides', 'number', 'sipUri', 'name', 'email', 'externalId',
]);

function unknownKeys(value: JsonMap, allowed: Set<string>, prefix = ''): string[] {
  return Object.keys(value)
    .filter((k) => !allowed.has(k))
    .map((k) => `property ${prefix}${k} should not exist`);
}

function optionalString(value: JsonMap, key: string, messages: string[], prefix = ''): void {
  if (value[key] !== undefined && typeof value[key] !== 'string') messages.push(`${prefix}${key} must be a string`);
}

export function validateCreateCall(body: unknown): Checked {
  if (!isMap(body)) return { ok: false, messages: ['body must be an object'] };
  const messages = unknownKeys(body, CALL_KEYS);
  for (const key of ['assistantId', 'squadId', 'workflowId', 'phoneNumberId', 'customerId', 'name']) {
    optionalString(body, key, messages);
  }
  if (!['assistantId', 'assistant', 'squadId', 'squad', 'workflowId', 'workflow'].some((k) => body[k] !== undefined)) {
    messages.push('assistantId, assistant, squadId, squad, workflowId or workflow must be provided');
  }
  if (body.phoneNumberId === undefined && body.phoneNumber === undefined) {
    messages.push('phoneNumberId or phoneNumber must be provided for a phone call');
  }
  const customer = body.customer;
  if (customer === undefined) {
    if (body.customerId === undefined && body.customers === undefined) messages.push('customer must be provided');
  } else if (!isMap(customer)) {
    messages.push('customer must be an object');
  } else {
    messages.push(...unknownKeys(customer, CUSTOMER_KEYS, 'customer.'));
    if (typeof customer.number !== 'string' || customer.number === '') {
      messages.push('customer.number must be a string');
    } else if (customer.numberE164CheckEnabled !== false && !E164.test(customer.number)) {
      messages.push(`customer.number ${E164_MESSAGE}`);
    }
  }
  const overrides = body.assistantOverrides;
  if (overrides !== undefined) {
    if (!isMap(overrides)) messages.push('assistantOverrides must be an object');
    else {
      for (const key of ['variableValues', 'metadata']) {
        if (overrides[key] !== undefined && !isMap(overrides[key])) messages.push(`assistantOverrides.${key} must be an object`);
      }
    }
  }
  return messages.length > 0 ? { ok: false, messages } : { ok: true, value: body };
}

const NUMBER_COMMON = ['provider', 'name', 'assistantId', 'workflowId', 'squadId', 'server', 'fallbackDestination', 'hooks'];
const NUMBER_KEYS: Record<string, Set<string>> = {
  vapi: new Set([...NUMBER_COMMON, 'numberDesiredAreaCode', 'sipUri', 'authentication']),
  twilio: new Set([...NUMBER_COMMON, 'number', 'twilioAccountSid', 'twilioAuthToken', 'twilioApiKey', 'twilioApiSecret', 'smsEnabled']),
  vonage: new Set([...NUMBER_COMMON, 'number', 'credentialId']),
  telnyx: new Set([...NUMBER_COMMON, 'number', 'credentialId']),
};

function requiredNumber(body: JsonMap, messages: string[]): void {
  if (typeof body.number !== 'string') messages.push('number must be a string');
  else if (!E164.test(body.number)) messages.push(`number ${E164_MESSAGE}`);
}

function requiredString(body: JsonMap, key: string, messages: string[]): void {
  if (typeof body[key] !== 'string' || body[key] === '') messages.push(`${key} must be a string`);
}

export function validateCreatePhoneNumber(body: unknown): Checked {
  if (!isMap(body)) return { ok: false, messages: ['body must be an object'] };
  const provider = typeof body.provider === 'string' ? body.provider : '';
  const allowed = NUMBER_KEYS[provider];
  if (!allowed) {
    return { ok: false, messages: [`provider must be one of the following values: ${Object.keys(NUMBER_KEYS).join(', ')}`] };
  }
  const messages = unknownKeys(body, allowed);
  for (const key of ['name', 'assistantId', 'workflowId', 'squadId']) optionalString(body, key, messages);
  if (body.server !== undefined && (!isMap(body.server) || typeof body.server.url !== 'string')) {
    messages.push('server.url must be a string');
  }
  switch (provider) {
    case 'vapi':
      if (body.numberDesiredAreaCode !== undefined && !/^\d{3}$/.test(String(body.numberDesiredAreaCode))) {
        messages.push('numberDesiredAreaCode must be a 3-digit area code');
      }
      optionalString(body, 'sipUri', messages);
      break;
    case 'twilio': {
      requiredNumber(body, messages);
      requiredString(body, 'twilioAccountSid', messages);
      const hasToken = typeof body.twilioAuthToken === 'string' && body.twilioAuthToken !== '';
      const hasKeyPair = typeof body.twilioApiKey === 'string' && typeof body.twilioApiSecret === 'string';
      if (!hasToken && !hasKeyPair) messages.push('twilioAuthToken or twilioApiKey and twilioApiSecret must be provided');
      if (body.smsEnabled !== undefined && typeof body.smsEnabled !== 'boolean') messages.push('smsEnabled must be a boolean value');
      break;
    }
    default:
      requiredNumber(body, messages);
      requiredString(body, 'credentialId', messages);
  }
  return messages.length > 0 ? { ok: false, messages } : { ok: true, value: body };
}
