package io.antrean.coordinator.store.sqlite.young;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A file's channel whose next {@code force} calls fail, as an fsync that meets a write-back error
 * does, while the ones after succeed, as the kernel's would; everything else goes to the real
 * channel.
 */
final class FailingForceChannel extends FileChannel {
  private final FileChannel real;
  private final AtomicInteger failuresLeft;

  FailingForceChannel(FileChannel real, AtomicInteger failuresLeft) {
    this.real = real;
    this.failuresLeft = failuresLeft;
  }

  @Override
  public void force(boolean metaData) throws IOException {
    if (failuresLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      throw new IOException("Input/output error");
    }
    real.force(metaData);
  }

  @Override
  public int read(ByteBuffer dst) throws IOException {
    return real.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    return real.read(dsts, offset, length);
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    return real.write(src);
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    return real.write(srcs, offset, length);
  }

  @Override
  public long position() throws IOException {
    return real.position();
  }

  @Override
  public FileChannel position(long newPosition) throws IOException {
    real.position(newPosition);
    return this;
  }

  @Override
  public long size() throws IOException {
    return real.size();
  }

  @Override
  public FileChannel truncate(long size) throws IOException {
    real.truncate(size);
    return this;
  }

  @Override
  public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
    return real.transferTo(position, count, target);
  }

  @Override
  public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
    return real.transferFrom(src, position, count);
  }

  @Override
  public int read(ByteBuffer dst, long position) throws IOException {
    return real.read(dst, position);
  }

  @Override
  public int write(ByteBuffer src, long position) throws IOException {
    return real.write(src, position);
  }

  @Override
  public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
    return real.map(mode, position, size);
  }

  @Override
  public FileLock lock(long position, long size, boolean shared) throws IOException {
    return real.lock(position, size, shared);
  }

  @Override
  public FileLock tryLock(long position, long size, boolean shared) throws IOException {
    return real.tryLock(position, size, shared);
  }

  @Override
  protected void implCloseChannel() throws IOException {
    real.close();
  }
}
