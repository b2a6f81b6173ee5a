package org.rdma.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SummaryTest {
    @Test
    void ratioKeepsTwoDecimalsAwayFromTheTarget() {
        assertEquals("0.65", Summary.ratio(0.6512, 0.6));
        assertEquals("0.59", Summary.ratio(0.5912, 0.6));
        assertEquals("0.60", Summary.ratio(0.6, 0.6));
        assertEquals("0.60", Summary.ratio(0.6049, 0.6));
    }

    @Test
    void ratioJustBelowTheTargetDoesNotPrintAsTheTarget() {
        assertEquals("0.597", Summary.ratio(0.5971, 0.6));
        assertEquals("0.9996", Summary.ratio(0.99963, 1));
        assertEquals("0.999999", Summary.ratio(0.9999994, 1));
    }
}
