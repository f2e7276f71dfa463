package io.antrean.coordinator.store.sqlite.young;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;
import javax.annotation.Nullable;

/**
 * How {@link YoungJobLog} frames a record: its length, a CRC32C of its segment's salt, its position
 * and its bytes, its position, then its bytes. A record of a unit that more records follow (a group
 * commit's, all but the last) carries a flag in its length's word, and its CRC is mixed with a
 * constant, so that a flipped flag reads as damage.
 *
 * <p>A segment starts with a header ({@link #putSegmentHeader}) holding its salt, a random number
 * the log draws at each open and never shows, so that bytes a client wrote in a payload cannot pass
 * for a record of a later segment but by a chance of one in 2^32 (a CRC, not a MAC). A segment of
 * the release before the salts has no header: its records' CRCs have no salt ({@link #NO_SALT}).
 *
 * <p>A segment is sealed with a frame of no record ({@link #putSeal}): a header whose length's word
 * is a flag of its own and whose position is the one the next segment starts at. It marks the
 * segment's clean end where what follows is not zeros, as in a segment recycled from one folded,
 * whose old records are still there. Stateless.
 */
final class LogFrames {
  /** The bytes before a record's own. */
  static final int HEADER_BYTES = Integer.BYTES + Integer.BYTES + Long.BYTES;

  /** The bytes of a segment's header. */
  static final int SEGMENT_HEADER_BYTES = Integer.BYTES + Long.BYTES + Integer.BYTES;

  /** The salt of a segment without a header: its CRCs are of the position and bytes alone. */
  static final long NO_SALT = 0;

  // In the length's word: more records of the same unit follow. Lengths stay under 2^26.
  private static final int MORE_FOLLOW = 1 << 30;
  // Mixed into the CRC of a record so flagged.
  private static final int MORE_FOLLOW_CRC = 0x5bd1e995;
  // The length's word of a seal; over MAX_RECORD_BYTES, so never read as a record's.
  private static final int SEAL = 1 << 29;
  // Mixed into the CRC of a seal.
  private static final int SEAL_CRC = 0x27d4eb2f;
  // The first word of a segment's header; read as a length's word, over MAX_RECORD_BYTES.
  private static final int SEGMENT_MAGIC = 0x594c4f47;
  private static final byte[] NO_RECORD = new byte[0];

  /** The bytes of a seal. */
  static final int SEAL_BYTES = HEADER_BYTES;

  /** A record read back, and whether more records of its unit follow it. */
  record Framed(YoungJobLog.Entry entry, boolean moreFollow) {}

  private LogFrames() {}

  /** Puts the header of a segment whose records are framed with {@code salt}, not NO_SALT. */
  static void putSegmentHeader(ByteBuffer buffer, long salt) {
    buffer.putInt(SEGMENT_MAGIC).putLong(salt).putInt(headerCrc(salt));
  }

  /**
   * The salt of the segment whose bytes start at the buffer's position, its position then past the
   * header; {@link #NO_SALT}, the position kept, if no sound header is there.
   */
  static long segmentSalt(ByteBuffer bytes) {
    int at = bytes.position();
    if (bytes.remaining() < SEGMENT_HEADER_BYTES || bytes.getInt(at) != SEGMENT_MAGIC) {
      return NO_SALT;
    }
    long salt = bytes.getLong(at + Integer.BYTES);
    if (salt == NO_SALT || bytes.getInt(at + Integer.BYTES + Long.BYTES) != headerCrc(salt)) {
      return NO_SALT;
    }
    bytes.position(at + SEGMENT_HEADER_BYTES);
    return salt;
  }

  /** Puts the framed record into {@code buffer}, which has room for it. */
  static void put(ByteBuffer buffer, long salt, long position, byte[] record, boolean moreFollow) {
    buffer
        .putInt(moreFollow ? record.length | MORE_FOLLOW : record.length)
        .putInt(crc(salt, position, record, moreFollow))
        .putLong(position)
        .put(record);
  }

  /** Puts the seal of a segment whose next record, in the next segment, is at {@code next}. */
  static void putSeal(ByteBuffer buffer, long salt, long next) {
    buffer.putInt(SEAL).putInt(sealCrc(salt, next)).putLong(next);
  }

  /**
   * Whether the buffer holds, at its position, the seal of a segment whose next record is at {@code
   * next}; the buffer's position stays.
   */
  static boolean sealAt(ByteBuffer bytes, long salt, long next) {
    int at = bytes.position();
    return bytes.remaining() >= SEAL_BYTES
        && bytes.getInt(at) == SEAL
        && bytes.getInt(at + Integer.BYTES) == sealCrc(salt, next)
        && bytes.getLong(at + 2 * Integer.BYTES) == next;
  }

  /**
   * The record at the buffer's position if it is whole, sound and numbered {@code expected}; null
   * otherwise (the buffer's position is then somewhere past it).
   */
  @Nullable
  static Framed next(ByteBuffer bytes, long salt, long expected) {
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
    if (position != expected || crc != crc(salt, position, record, moreFollow)) {
      return null;
    }
    return new Framed(new YoungJobLog.Entry(position, record), moreFollow);
  }

  private static int headerCrc(long salt) {
    CRC32C crc = new CRC32C();
    crc.update(
        ByteBuffer.allocate(Integer.BYTES + Long.BYTES).putInt(SEGMENT_MAGIC).putLong(salt).flip());
    return (int) crc.getValue();
  }

  private static int sealCrc(long salt, long next) {
    return crc(salt, next, NO_RECORD, false) ^ SEAL_CRC;
  }

  private static int crc(long salt, long position, byte[] record, boolean moreFollow) {
    CRC32C crc = new CRC32C();
    ByteBuffer numbers = ByteBuffer.allocate(2 * Long.BYTES);
    if (salt != NO_SALT) {
      numbers.putLong(salt);
    }
    crc.update(numbers.putLong(position).flip());
    crc.update(record);
    return moreFollow ? (int) crc.getValue() ^ MORE_FOLLOW_CRC : (int) crc.getValue();
  }
}
