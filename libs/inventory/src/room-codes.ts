/**
 * The catalog's room types in the room-code vocabulary bedbanks share (`TYPE.CHARACTERISTIC`,
 * e.g. DBL.ST): how a vendor's room in an availability answer is matched to the room type of
 * a platform hotel, and how the simulated vendors name theirs.
 */
const ROOM_CODES: Record<number, { type: string; characteristic: string; name: string }> = {
  1: { type: 'SGL', characteristic: 'ST', name: 'SINGLE STANDARD' },
  2: { type: 'DBL', characteristic: 'ST', name: 'DOUBLE STANDARD' },
  3: { type: 'TWN', characteristic: 'ST', name: 'TWIN STANDARD' },
  4: { type: 'DBL', characteristic: 'SU-KG', name: 'DOUBLE SUPERIOR KING' },
  5: { type: 'TPL', characteristic: 'ST', name: 'TRIPLE STANDARD' },
  6: { type: 'FAM', characteristic: 'ST', name: 'FAMILY ROOM STANDARD' },
  7: { type: 'JSU', characteristic: 'ST', name: 'JUNIOR SUITE STANDARD' },
  8: { type: 'SUI', characteristic: '2B', name: 'SUITE TWO BEDROOMS' },
};

/** A room type's code parts and name. */
export function roomCodeParts(room: { roomId: number }): { type: string; characteristic: string; name: string } {
  const code = ROOM_CODES[room.roomId];
  if (!code) throw new Error(`room type ${room.roomId} has no room code`);
  return code;
}

export function roomCodeOf(room: { roomId: number }): string {
  const code = roomCodeParts(room);
  return `${code.type}.${code.characteristic}`;
}

/** The catalog's room type id of a room code, or undefined. */
export function roomIdOfCode(code: string): number | undefined {
  for (const [roomId, parts] of Object.entries(ROOM_CODES)) if (`${parts.type}.${parts.characteristic}` === code) return Number(roomId);
  return undefined;
}
