package io.edp.engine.packet;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The flow cache indexes buckets by the low bits of {@link FlowKey#hash}: every key bit must reach them. */
class FlowKeyHashTest {

    /** Bucket-index bits of the largest cache (131,072 buckets of 4). */
    private static final int INDEX_BITS = 17;
    private static final int SAMPLES = 256;

    @Test
    void flippingAnyKeyBitFlipsEachBucketIndexBitAboutHalfTheTime() {
        SplittableRandom random = new SplittableRandom(13);
        long[][] keys = new long[SAMPLES][6];
        for (long[] key : keys) {
            for (int w = 0; w < 6; w++) {
                key[w] = random.nextLong();
            }
        }
        for (int bit = 0; bit < 6 * 64; bit++) {
            int[] flips = new int[INDEX_BITS];
            for (long[] key : keys) {
                long[] flipped = key.clone();
                flipped[bit / 64] ^= 1L << (bit % 64);
                int changed = hash(key) ^ hash(flipped);
                for (int out = 0; out < INDEX_BITS; out++) {
                    flips[out] += (changed >>> out) & 1;
                }
            }
            for (int out = 0; out < INDEX_BITS; out++) {
                // about 128 of 256 expected; 64..192 is eight standard deviations wide
                assertThat(flips[out]).as("key bit %d (word %d) into hash bit %d", bit % 64, bit / 64, out)
                        .isBetween(SAMPLES / 4, SAMPLES * 3 / 4);
            }
        }
    }

    @Test
    void theHashIsNeverZeroWhichMarksAnEmptySlot() {
        assertThat(FlowKey.hash(0, 0, 0, 0, 0, 0)).isNotZero();
    }

    private static int hash(long[] w) {
        return FlowKey.hash(w[0], w[1], w[2], w[3], w[4], w[5]);
    }
}
