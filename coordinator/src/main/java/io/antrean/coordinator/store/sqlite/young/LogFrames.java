package io.antrean.coordinator.store.sqlite.young;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import javax.annotation.Nullable;

/**
 * How {@link YoungJobLog} frames a record: its length, a CRC32C of its position and bytes, its
 * position, then its bytes. A record of a unit that more records follow (a group commit's, all but
 * the last) carries a flag in its length's word, and its CRC is mixed with a constant, so that a
 * flipped flag reads as damage.
 *
 * <p>A segment is sealed with a frame of no record ({@link #putSeal}): a header whose length's word
 * is a flag of its own and whose position is the one the next segment starts at. It marks the
 * segment's clean end where what follows is not zeros, as in a segment recycled from one folded,
 * whose old records are still there. Stateless.
 */
final class LogFrames {
  /** The bytes before a record's own. */
  static final int HEADER_BYTES = Integer.BYTES + Integer.BYTES + Long.BYTES;

  // In the length's word: more records of the same unit follow. Lengths stay under 2^26.
  private static final int MORE_FOLLOW = 1 << 30;
  // Mixed into the CRC of a record so flagged.
  private static final int MORE_FOLLOW_CRC = 0x5bd1e995;
  // The length's word of a seal; over MAX_RECORD_BYTES, so never read as a record's.
  private static final int SEAL = 1 << 29;
  // Mixed into the CRC of a seal.
  private static final int SEAL_CRC = 0x27d4eb2f;
  private static final byte[] NO_RECORD = new byte[0];

  /** The bytes of a seal. */
  static final int SEAL_BYTES = HEADER_BYTES;

  /** A record read back, and whether more records of its unit follow it. */
  record Framed(YoungJobLog.Entry entry, boolean moreFollow) {}

  private LogFrames() {}

  /** Puts the framed record into {@code buffer}, which has room for it. */
  static void put(ByteBuffer buffer, long position, byte[] record, boolean moreFollow) {
    buffer
        .putInt(moreFollow ? record.length | MORE_FOLLOW : record.length)
        .putInt(crc(position, record, moreFollow))
        .putLong(position)
        .put(record);
  }

  /** Puts the seal of a segment whose next record, in the next segment, is at {@code next}. */
  static void putSeal(ByteBuffer buffer, long next) {
    buffer.putInt(SEAL).putInt(sealCrc(next)).putLong(next);
  }

  /**
   * Whether the buffer holds, at its position, the seal of a segment whose next record is at {@code
   * next}; the buffer's position stays.
   */
  static boolean sealAt(ByteBuffer bytes, long next) {
    int at = bytes.position();
    return bytes.remaining() >= SEAL_BYTES
        && bytes.getInt(at) == SEAL
        && bytes.getInt(at + Integer.BYTES) == sealCrc(next)
        && bytes.getLong(at + 2 * Integer.BYTES) == next;
  }

  /**
   * The record at the buffer's position if it is whole, sound and numbered {@code expected}; null
   * otherwise (the buffer's position is then somewhere past it).
   */
  @Nullable
  static Framed next(ByteBuffer bytes, long expected) {
    if (bytes.remaining() < HEADER_BYTES) {
      return null;
    }
    int word = bytes.getInt();
    boolean moreFollow = (word & MORE_FOLLOW) != 0;
    int length = word & ~MORE_FOLLOW;
    int crc = bytes.getInt();
    long position = bytes.getLong();
    if (length < 0 || length > YoungJobLog.MAX_RECORD_BYTES || bytes.remaining() < length) {
      return null;
    }
    byte[] record = new byte[length];
    bytes.get(record);
    if (position != expected || crc != crc(position, record, moreFollow)) {
      return null;
    }
    return new Framed(new YoungJobLog.Entry(position, record), moreFollow);
  }

  private static int sealCrc(long next) {
    return crc(next, NO_RECORD, false) ^ SEAL_CRC;
  }

  private static int crc(long position, byte[] record, boolean moreFollow) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(Long.BYTES).putLong(0, position));
    crc.update(record);
    return moreFollow ? (int) crc.getValue() ^ MORE_FOLLOW_CRC : (int) crc.getValue();
  }
}
