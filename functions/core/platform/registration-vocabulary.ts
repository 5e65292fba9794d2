/**
 * What the platform says of professional registration: the registers
 * checked, and how serious an alert about one is. Registration monitoring
 * owns the rules; the configuration (check prices per register) and team
 * roles (which alerts a member is told of) read these words too, so they
 * live here, beside the booking and request vocabularies.
 */

export const REGISTERS = ['nmc', 'hcpc', 'gmc'] as const;
export type Register = (typeof REGISTERS)[number];

export type Severity = 'low' | 'medium' | 'high' | 'critical';
