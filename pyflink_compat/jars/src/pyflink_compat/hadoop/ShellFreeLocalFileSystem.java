package pyflink_compat.hadoop;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;

import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * Hadoop's local file system ("file:" paths) setting permissions through java.nio.
 *
 * <p>Without Hadoop's native library (pyspark ships none), RawLocalFileSystem sets the permission of every
 * file and directory it creates by starting a {@code chmod} process: Spark's checkpoints create a dozen or more
 * per micro-batch of a stateful query (offsets, commits, state store files), each a process started from the
 * JVM. java.nio sets the same permission bits without one. Modes beyond the nine permission bits (sticky bit)
 * are left to Hadoop's own way.
 */
public class ShellFreeLocalFileSystem extends LocalFileSystem {
    public ShellFreeLocalFileSystem() {
        super(new Raw());
    }

    /** The raw (checksum-less) file system under {@link ShellFreeLocalFileSystem}. */
    public static class Raw extends RawLocalFileSystem {
        /** Bit i of a POSIX mode, from others' execute (bit 0) to the owner's read (bit 8). */
        private static final PosixFilePermission[] MODE_BITS = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};

        @Override
        public void setPermission(Path path, FsPermission permission) throws IOException {
            int mode = permission.toShort();
            if ((mode & ~0777) != 0) {
                super.setPermission(path, permission);
                return;
            }
            Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
            for (int bit = 0; bit < MODE_BITS.length; bit++) {
                if ((mode & (1 << bit)) != 0) {
                    permissions.add(MODE_BITS[bit]);
                }
            }
            try {
                Files.setPosixFilePermissions(pathToFile(path).toPath(), permissions);
            } catch (UnsupportedOperationException e) {
                super.setPermission(path, permission);      // a file system without POSIX permissions
            }
        }
    }
}
