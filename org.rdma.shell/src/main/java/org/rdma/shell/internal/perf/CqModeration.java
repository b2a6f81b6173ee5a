package org.rdma.shell.internal.perf;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The TX depth, CQ moderation ({@code -Q, --cq-mod}) and post list ({@code -l, --post_list}) of
 * a bandwidth run as perftest's {@code force_dependecies()} ({@code src/perftest_parameters.c})
 * settles them, with the lines it prints on the way ({@link #notices}, printed before anything
 * else). The rules, in perftest's order:
 *
 * <ol>
 *   <li>with iterations ({@code -n}), the TX depth is at most the iterations;</li>
 *   <li>CQ moderation is {@value #DEF_CQ_MOD} unless asked for; above
 *       {@value #MSG_SIZE_CQ_MOD_LIMIT}-byte messages it is 1 unless asked for, and asking for
 *       more than 1 there prints two warnings;</li>
 *   <li>it is at most the TX depth;</li>
 *   <li>with a post list longer than 1, the iterations must be a multiple of it; CQ moderation
 *       becomes the post list's size unless asked for (a notice says so), and the post list
 *       must be a multiple of the one asked for.</li>
 * </ol>
 *
 * Beyond perftest, a post list longer than the TX depth is refused: perftest's window
 * ({@code scnt + post_list <= tx_depth + ccnt}) never opens for it and the run never ends.
 *
 * @param txDepth WRITEs in flight per QP at most ({@code -t} after rule 1)
 * @param cqMod every {@code cqMod}-th WRITE asks for a completion
 * @param postList WRITEs per {@code ibv_post_send()} call
 * @param notices what perftest prints while it settles the values
 */
public record CqModeration(int txDepth, int cqMod, int postList, List<String> notices) {
    /** perftest's {@code DEF_CQ_MOD}. */
    public static final int DEF_CQ_MOD = 100;
    /** perftest's {@code MIN_CQ_MOD}: the smallest {@code -Q}. */
    public static final int MIN_CQ_MOD = 1;
    /** perftest's {@code MAX_CQ_MOD}: the largest {@code -Q}. */
    public static final int MAX_CQ_MOD = 1024;
    /** perftest's {@code MSG_SIZE_CQ_MOD_LIMIT}: larger messages are not moderated by default. */
    public static final int MSG_SIZE_CQ_MOD_LIMIT = 8192;

    /** A copy with an unmodifiable list of notices. */
    public CqModeration {
        notices = List.copyOf(notices);
    }

    /**
     * Settles the values for {@code size}-byte messages and {@code iters} iterations per QP (or a
     * timed run, {@code duration}): {@code requestedCqMod} is {@code -Q} (0 when not given),
     * {@code postList} is {@code -l} (1 when not given). A combination perftest refuses is
     * {@code invalid} applied to perftest's message, thrown.
     */
    public static CqModeration resolve(int size, long iters, boolean duration, int txDepth, int requestedCqMod,
            int postList, Function<String, ? extends RuntimeException> invalid) {
        List<String> notices = new ArrayList<>();
        int depth = !duration && txDepth > iters ? (int) iters : txDepth;
        boolean requested = requestedCqMod > 0;
        int cqMod = requested ? requestedCqMod : DEF_CQ_MOD;
        if (size > MSG_SIZE_CQ_MOD_LIMIT) {
            if (!requested) {
                cqMod = 1;
            } else if (cqMod > 1) {
                notices.add(WriteBw.RESULT_LINE);
                notices.add("Warning: Large message requested and CQ moderation enabled");
                notices.add("Warning: It can lead to inaccurate results");
            }
        }
        cqMod = Math.min(cqMod, depth);
        if (postList > 1) {
            if (!duration && iters % postList != 0) {
                throw invalid.apply("Number of iterations must be a multiple of post list size");
            }
            if (!requested) {
                cqMod = postList;
                notices.add(WriteBw.RESULT_LINE);
                notices.add("Post List requested - CQ moderation will be the size of the post list");
            } else if (postList % cqMod != 0) {
                throw invalid.apply("Post list size must be a multiple of CQ moderation");
            }
        }
        if (postList > depth) {
            throw invalid.apply("Post list size " + postList + " is larger than the TX depth " + depth);
        }
        return new CqModeration(depth, cqMod, postList, notices);
    }
}
