/** The kit's statuses; SDK-free, for the schemas and documents too. */
export const EQUIPMENT_STATUSES = [
  'not_required',
  'awaiting_dispatch',
  'dispatched',
  'delivered',
  'return_in_transit',
  'returned',
  'overdue',
  'lost',
  'cancelled',
] as const;
export type EquipmentStatus = (typeof EQUIPMENT_STATUSES)[number];
