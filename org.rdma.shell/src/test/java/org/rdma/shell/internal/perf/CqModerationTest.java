package org.rdma.shell.internal.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * perftest's force_dependecies() rules for -t, -Q and -l, in perftest's order: the TX depth is
 * capped at the iterations, the size rule comes before the cap at the TX depth, and the post
 * list rule after both.
 */
class CqModerationTest {
    private static final List<String> LARGE_MESSAGE_WARNING = List.of(WriteBw.RESULT_LINE,
            "Warning: Large message requested and CQ moderation enabled", "Warning: It can lead to inaccurate results");
    private static final List<String> POST_LIST_NOTICE = List.of(WriteBw.RESULT_LINE,
            "Post List requested - CQ moderation will be the size of the post list");

    private static CqModeration iters(int size, long iters, int txDepth, int cqMod, int postList) {
        return CqModeration.resolve(size, iters, false, txDepth, cqMod, postList, IllegalArgumentException::new);
    }

    private static String refused(int size, long iters, boolean duration, int txDepth, int cqMod, int postList) {
        return assertThrows(IllegalArgumentException.class, () -> CqModeration.resolve(size, iters, duration, txDepth,
                cqMod, postList, IllegalArgumentException::new)).getMessage();
    }

    @Test
    void defaultIs100UpTo8192BytesAnd1Above() {
        assertEquals(new CqModeration(128, 100, 1, List.of()), iters(8, 5000, 128, 0, 1));
        assertEquals(new CqModeration(128, 100, 1, List.of()), iters(8192, 5000, 128, 0, 1));
        assertEquals(new CqModeration(128, 1, 1, List.of()), iters(8193, 5000, 128, 0, 1));
        assertEquals(new CqModeration(128, 1, 1, List.of()), iters(65536, 5000, 128, 0, 1));
    }

    @Test
    void askingForModerationOfLargeMessagesWarns() {
        assertEquals(new CqModeration(128, 10, 1, LARGE_MESSAGE_WARNING), iters(65536, 5000, 128, 10, 1));
        assertEquals(new CqModeration(128, 1, 1, List.of()), iters(65536, 5000, 128, 1, 1), "-Q 1 moderates nothing");
        // the warning comes before the cap at the TX depth, which then takes the moderation back to 1
        assertEquals(new CqModeration(1, 1, 1, LARGE_MESSAGE_WARNING), iters(65536, 5000, 1, 10, 1));
    }

    @Test
    void txDepthIsCappedAtTheIterationsAndModerationAtTheTxDepth() {
        assertEquals(new CqModeration(64, 64, 1, List.of()), iters(8, 5000, 64, 0, 1));
        assertEquals(new CqModeration(64, 64, 1, List.of()), iters(8, 5000, 64, 500, 1));
        assertEquals(new CqModeration(50, 50, 1, List.of()), iters(8, 50, 128, 0, 1));
        assertEquals(new CqModeration(128, 100, 1, List.of()),
                CqModeration.resolve(8, 50, true, 128, 0, 1, IllegalArgumentException::new), "no cap in a timed run");
    }

    @Test
    void postListSetsTheModerationUnlessAskedFor() {
        assertEquals(new CqModeration(128, 16, 16, POST_LIST_NOTICE), iters(8, 1600, 128, 0, 16));
        // the post list rule comes after the size rule: large messages are moderated too
        assertEquals(new CqModeration(128, 16, 16, POST_LIST_NOTICE), iters(65536, 1600, 128, 0, 16));
        assertEquals(new CqModeration(128, 4, 16, List.of()), iters(8, 1600, 128, 4, 16));
        assertEquals(new CqModeration(128, 16, 16, POST_LIST_NOTICE),
                CqModeration.resolve(8, 1000, true, 128, 0, 16, IllegalArgumentException::new),
                "a timed run has no iterations to divide");
    }

    @Test
    void refusedCombinations() {
        assertEquals("Number of iterations must be a multiple of post list size", refused(8, 1000, false, 128, 0, 16));
        assertEquals("Post list size must be a multiple of CQ moderation", refused(8, 1600, false, 128, 5, 16));
        // -Q 100 is first capped at -t 64, then 100 is not a multiple of 64
        assertEquals("Post list size must be a multiple of CQ moderation", refused(8, 1000, false, 64, 100, 100));
        assertEquals("Post list size 256 is larger than the TX depth 128", refused(8, 2560, false, 128, 0, 256));
        assertEquals("Post list size 16 is larger than the TX depth 8", refused(8, 1600, true, 8, 8, 16));
    }
}
