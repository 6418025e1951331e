// Test-only workflow bundle for the outbound rail end to end: the sender that waits on the event
// rail's signals, and the platform's formIntake that the recipient's submission starts.
export { outboundSender } from './outbound-sender';
export { formIntake } from '../../../workflows/form-intake';
