package org.rdma.target.internal.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rdma.scsi.Asc;
import org.rdma.scsi.Cdb;
import org.rdma.scsi.Lun;
import org.rdma.scsi.SenseKey;
import org.rdma.scsi.TaskAttribute;
import org.rdma.scsi.TmfFunction;
import org.rdma.target.fabric.FabricSession;
import org.rdma.target.internal.backstore.RamdiskBackstore;
import org.rdma.target.internal.device.DeviceAttributes;
import org.rdma.target.internal.device.ScsiDevice;

/**
 * Task management (SAM-5 clause 7) through the fabric SPI, on the hand-drained executor: which
 * commands each function aborts, how each nexus learns of it, and the response's place after them.
 */
class TaskManagementTest extends CoreFixture {
    private static final long LUN0 = Lun.encode(0);

    private static byte[] block(int fill, int blocks) {
        byte[] b = new byte[512 * blocks];
        Arrays.fill(b, (byte) fill);
        return b;
    }

    private byte[] read(FabricSession s, int lun, long lba, int blocks) {
        RecordingFabric.Outcome o = run(s, lun, Cdb.read10(lba, blocks, 0), 512 * blocks, null);
        assertGood(o);
        return o.data();
    }

    @Test
    void abortTaskTakesACommandThatHasNotStartedOffItsPath() {
        FabricSession a = loginReady(INI);
        events.clear();
        submit(a, 0, Cdb.write10(5, 1, 0), 10, TaskAttribute.SIMPLE, 512, block(7, 1));
        assertEquals(1, exec.pending(), "the write waits for the executor");
        a.submitTmr(TmfFunction.ABORT_TASK, LUN0, 70, 10);
        exec.drain();
        assertEquals(List.of("write_pending 10", "aborted 10", "tmr 70 ABORT_TASK FUNCTION_COMPLETE"), events);
        assertArrayEquals(block(0, 1), read(a, 0, 5, 1), "an aborted write that had not started wrote nothing");
        submit(a, 0, Cdb.testUnitReady(), 10, TaskAttribute.SIMPLE, 0, null);
        exec.drain();
        assertGood(fabric.outcomes.get(10L));
    }

    @Test
    void abortTaskAnswersForTasksItDoesNotFind() {
        tpg.addLun(1, device(new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS));
        FabricSession a = loginReady(INI);
        RecordingFabric fa = fabric;
        FabricSession b = loginReady(INI2);
        run(a, 1, Cdb.testUnitReady(), 0, null);
        submit(b, 0, Cdb.testUnitReady(), 20, TaskAttribute.SIMPLE, 0, null);
        submit(a, 1, Cdb.testUnitReady(), 21, TaskAttribute.SIMPLE, 0, null);
        a.submitTmr(TmfFunction.ABORT_TASK, LUN0, 70, 99);
        a.submitTmr(TmfFunction.ABORT_TASK, LUN0, 71, 20);
        a.submitTmr(TmfFunction.ABORT_TASK, LUN0, 72, 21);
        a.submitTmr(TmfFunction.ABORT_TASK, LUN0, 73, 1);
        a.submitTmr(TmfFunction.ABORT_TASK, Lun.encode(5), 74, 21);
        a.submitTmr(TmfFunction.ABORT_TASK, 0x0100_0000_0000_0000L, 75, 21);
        a.submitTmr(TmfFunction.CLEAR_ACA, LUN0, 76, 0);
        assertEquals(List.of("70 ABORT_TASK TASK_DOES_NOT_EXIST", "71 ABORT_TASK TASK_DOES_NOT_EXIST",
                "72 ABORT_TASK TASK_DOES_NOT_EXIST", "73 ABORT_TASK TASK_DOES_NOT_EXIST",
                "74 ABORT_TASK INCORRECT_LOGICAL_UNIT_NUMBER", "75 ABORT_TASK INCORRECT_LOGICAL_UNIT_NUMBER",
                "76 CLEAR_ACA FUNCTION_NOT_SUPPORTED"), fa.tmResponses,
                "99: no such tag; 20: another nexus's; 21: on LUN 1; 1: completed; LUN 5 is not mapped");
        exec.drain();
        assertGood(fabricOf(b).outcomes.get(20L));
        assertGood(fa.outcomes.get(21L));
    }

    @Test
    void anAbortedWriteAtTheBackstoreFinishesWholeBeforeTheResponse() {
        HookedBackstore hooked = new HookedBackstore(1 << 20, events);
        tpg.addLun(1, device(hooked, DeviceAttributes.DEFAULTS));
        FabricSession a = loginReady(INI);
        run(a, 1, Cdb.testUnitReady(), 0, null);
        events.clear();
        hooked.duringWrite = () -> {
            a.submitTmr(TmfFunction.ABORT_TASK, Lun.encode(1), 70, 10);
            events.add("abort submitted");
        };
        submit(a, 1, Cdb.write10(3, 2, 0), 10, TaskAttribute.SIMPLE, 1024, block(9, 2));
        exec.drain();
        assertEquals(List.of("write_pending 10", "abort submitted", "backstore write 3+2", "aborted 10",
                "tmr 70 ABORT_TASK FUNCTION_COMPLETE"), events);
        assertArrayEquals(block(9, 2), read(a, 1, 3, 2), "the write was under way: it happened whole");
    }

    @Test
    void anotherNexusGetsTaskAbortedForItsExecutingCommandWhenTasIsSet() {
        HookedBackstore hooked = new HookedBackstore(1 << 20, events);
        tpg.addLun(1, device(hooked, DeviceAttributes.DEFAULTS));
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        run(a, 1, Cdb.testUnitReady(), 0, null);
        run(b, 1, Cdb.testUnitReady(), 0, null);
        events.clear();
        hooked.duringWrite = () -> a.submitTmr(TmfFunction.LOGICAL_UNIT_RESET, Lun.encode(1), 70, 0);
        submit(b, 1, Cdb.write10(0, 1, 0), 20, TaskAttribute.SIMPLE, 512, block(1, 1));
        exec.drain();
        assertEquals(List.of("write_pending 20", "backstore write 0+1", "status 20 TASK_ABORTED",
                "tmr 70 LOGICAL_UNIT_RESET FUNCTION_COMPLETE"), events);
        assertNull(fabricOf(b).outcomes.get(20L).sense());
    }

    @Test
    void logicalUnitResetAbortsEveryNexusAndTellsEveryNexus() {
        ScsiDevice other = device(new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS);
        tpg.addLun(1, other);
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        FabricSession c = loginReady(INI3);
        run(a, 1, Cdb.testUnitReady(), 0, null);
        ram.setRemovalPrevented(true);
        events.clear();
        submit(a, 0, Cdb.write10(0, 1, 0), 10, TaskAttribute.SIMPLE, 512, block(5, 1));
        submit(a, 0, Cdb.testUnitReady(), 11, TaskAttribute.ORDERED, 0, null);
        submit(b, 0, Cdb.read10(0, 1, 0), 20, TaskAttribute.SIMPLE, 512, null);
        submit(a, 1, Cdb.testUnitReady(), 12, TaskAttribute.SIMPLE, 0, null);
        a.submitTmr(TmfFunction.LOGICAL_UNIT_RESET, LUN0, 70, 0);
        exec.drain();
        assertEquals(List.of("write_pending 10", "aborted 10", "aborted 11", "status 20 TASK_ABORTED",
                "tmr 70 LOGICAL_UNIT_RESET FUNCTION_COMPLETE", "status 12 GOOD"), events,
                "the issuing nexus's commands end without status, the other's with TASK ABORTED (TAS); LUN 1 goes on");
        assertFalse(ram.removalPrevented());
        for (FabricSession s : List.of(a, b, c)) {
            assertSense(run(s, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.BUS_DEVICE_RESET_FUNCTION_OCCURRED);
        }
        assertGood(run(a, 1, Cdb.testUnitReady(), 0, null));
        assertArrayEquals(block(0, 1), read(a, 0, 0, 1));
    }

    @Test
    void clearTaskSetWithoutTasLeavesAUnitAttentionInsteadOfStatus() {
        ram.setTaskAbortedStatus(false);
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        FabricSession c = loginReady(INI3);
        events.clear();
        submit(a, 0, Cdb.testUnitReady(), 10, TaskAttribute.SIMPLE, 0, null);
        submit(b, 0, Cdb.testUnitReady(), 20, TaskAttribute.SIMPLE, 0, null);
        a.submitTmr(TmfFunction.CLEAR_TASK_SET, LUN0, 70, 0);
        exec.drain();
        assertEquals(List.of("aborted 10", "aborted 20", "tmr 70 CLEAR_TASK_SET FUNCTION_COMPLETE"), events);
        assertGood(run(a, 0, Cdb.testUnitReady(), 0, null));
        assertSense(run(b, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.COMMANDS_CLEARED_BY_ANOTHER_INITIATOR);
        assertGood(run(b, 0, Cdb.testUnitReady(), 0, null));
        assertGood(run(c, 0, Cdb.testUnitReady(), 0, null), "a nexus that lost nothing hears nothing");
    }

    private static void assertGood(RecordingFabric.Outcome o, String why) {
        assertEquals(org.rdma.scsi.ScsiStatus.GOOD, o.cmd().status(), why);
    }

    @Test
    void abortTaskSetLeavesOtherNexusesAlone() {
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        events.clear();
        submit(a, 0, Cdb.testUnitReady(), 10, TaskAttribute.SIMPLE, 0, null);
        submit(b, 0, Cdb.testUnitReady(), 20, TaskAttribute.SIMPLE, 0, null);
        a.submitTmr(TmfFunction.ABORT_TASK_SET, LUN0, 70, 0);
        exec.drain();
        assertEquals(List.of("aborted 10", "tmr 70 ABORT_TASK_SET FUNCTION_COMPLETE", "status 20 GOOD"), events);
        assertGood(run(b, 0, Cdb.testUnitReady(), 0, null));
    }

    @Test
    void abortingTheOrderedTaskLetsTheSimpleOnesBehindItRun() {
        FabricSession a = loginReady(INI);
        events.clear();
        submit(a, 0, Cdb.testUnitReady(), 10, TaskAttribute.SIMPLE, 0, null);
        submit(a, 0, Cdb.testUnitReady(), 11, TaskAttribute.ORDERED, 0, null);
        submit(a, 0, Cdb.testUnitReady(), 12, TaskAttribute.SIMPLE, 0, null);
        assertEquals(1, exec.pending());
        a.submitTmr(TmfFunction.ABORT_TASK, LUN0, 70, 11);
        assertEquals(2, exec.pending(), "12 no longer waits");
        exec.drain();
        assertEquals(List.of("aborted 11", "tmr 70 ABORT_TASK FUNCTION_COMPLETE", "status 10 GOOD", "status 12 GOOD"), events);
    }

    @Test
    void itNexusResetAbortsThatNexusOnEveryLun() {
        tpg.addLun(1, device(new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS));
        FabricSession a = loginReady(INI);
        FabricSession b = loginReady(INI2);
        run(a, 1, Cdb.testUnitReady(), 0, null);
        events.clear();
        submit(a, 0, Cdb.testUnitReady(), 10, TaskAttribute.SIMPLE, 0, null);
        submit(a, 1, Cdb.testUnitReady(), 11, TaskAttribute.SIMPLE, 0, null);
        submit(b, 0, Cdb.testUnitReady(), 20, TaskAttribute.SIMPLE, 0, null);
        a.submitTmr(TmfFunction.I_T_NEXUS_RESET, 0, 70, 0);
        exec.drain();
        assertEquals(List.of("aborted 10", "aborted 11", "tmr 70 I_T_NEXUS_RESET FUNCTION_COMPLETE", "status 20 GOOD"), events);
        assertSense(run(a, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.I_T_NEXUS_LOSS_OCCURRED);
        assertSense(run(a, 1, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.I_T_NEXUS_LOSS_OCCURRED);
        assertGood(run(b, 0, Cdb.testUnitReady(), 0, null));
    }

    @Test
    void targetResetResetsEveryLogicalUnitOfTheTargetOnly() {
        ScsiDevice second = device(new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS);
        Tpg tpg2 = core.addTpg("iscsi", IQN, 2, 5);
        tpg2.addLun(0, second);
        tpg2.setGenerateNodeAcls(true);
        Tpg elsewhere = core.addTpg("iscsi", "iqn.2003-01.org.example:t2", 1, 5);
        elsewhere.addLun(0, device(new RamdiskBackstore(1 << 20, 512), DeviceAttributes.DEFAULTS));
        elsewhere.setGenerateNodeAcls(true);
        FabricSession a = loginReady(INI);
        FabricSession b = tpg2.openSession(INI2, INI2 + ",i,0x1", new RecordingFabric(events));
        FabricSession c = elsewhere.openSession(INI3, INI3 + ",i,0x1", new RecordingFabric(events));
        run(b, 0, Cdb.testUnitReady(), 0, null);
        run(c, 0, Cdb.testUnitReady(), 0, null);
        a.submitTmr(TmfFunction.TARGET_RESET, 0, 70, 0);
        assertEquals(List.of("70 TARGET_RESET FUNCTION_COMPLETE"), fabric.tmResponses);
        assertSense(run(a, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.BUS_DEVICE_RESET_FUNCTION_OCCURRED);
        assertSense(run(b, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION, Asc.BUS_DEVICE_RESET_FUNCTION_OCCURRED);
        assertGood(run(c, 0, Cdb.testUnitReady(), 0, null));
    }

    @Test
    void queriesAndAWriteAbortedWhileItsDataIsOnTheWay() {
        FabricSession a = loginReady(INI);
        RecordingFabric fa = fabric;
        FabricSession b = login(INI2);
        fa.holdWriteData = true;
        submit(a, 0, Cdb.write10(8, 1, 0), 10, TaskAttribute.SIMPLE, 512, block(3, 1));
        a.submitTmr(TmfFunction.QUERY_TASK, LUN0, 70, 10);
        a.submitTmr(TmfFunction.QUERY_TASK, LUN0, 71, 11);
        a.submitTmr(TmfFunction.QUERY_TASK_SET, LUN0, 72, 0);
        b.submitTmr(TmfFunction.QUERY_TASK_SET, LUN0, 80, 0);
        b.submitTmr(TmfFunction.QUERY_ASYNCHRONOUS_EVENT, LUN0, 81, 0);
        a.submitTmr(TmfFunction.QUERY_ASYNCHRONOUS_EVENT, LUN0, 73, 0);
        a.submitTmr(TmfFunction.ABORT_TASK, LUN0, 74, 10);
        fa.supply(fa.writePending.get(10L));
        exec.drain();
        a.submitTmr(TmfFunction.QUERY_TASK, LUN0, 75, 10);
        assertEquals(List.of("70 QUERY_TASK FUNCTION_SUCCEEDED", "71 QUERY_TASK FUNCTION_COMPLETE",
                "72 QUERY_TASK_SET FUNCTION_SUCCEEDED", "73 QUERY_ASYNCHRONOUS_EVENT FUNCTION_COMPLETE",
                "74 ABORT_TASK FUNCTION_COMPLETE", "75 QUERY_TASK FUNCTION_COMPLETE"), fa.tmResponses);
        assertEquals(List.of("80 QUERY_TASK_SET FUNCTION_COMPLETE", "81 QUERY_ASYNCHRONOUS_EVENT FUNCTION_SUCCEEDED"),
                fabricOf(b).tmResponses);
        assertSense(run(b, 0, Cdb.testUnitReady(), 0, null), SenseKey.UNIT_ATTENTION,
                Asc.POWER_ON_RESET_OR_BUS_DEVICE_RESET_OCCURRED);
        fa.holdWriteData = false;
        assertArrayEquals(block(0, 1), read(a, 0, 8, 1), "data-out after the abort is dropped");
    }

    @Test
    void aSecondFunctionWithTheTagOfOneInProgressIsRejected() {
        HookedBackstore hooked = new HookedBackstore(1 << 20, events);
        tpg.addLun(1, device(hooked, DeviceAttributes.DEFAULTS));
        FabricSession a = loginReady(INI);
        run(a, 1, Cdb.testUnitReady(), 0, null);
        events.clear();
        hooked.duringWrite = () -> {
            a.submitTmr(TmfFunction.LOGICAL_UNIT_RESET, Lun.encode(1), 70, 0);
            a.submitTmr(TmfFunction.ABORT_TASK_SET, Lun.encode(1), 70, 0);
        };
        submit(a, 1, Cdb.write10(0, 1, 0), 10, TaskAttribute.SIMPLE, 512, block(1, 1));
        exec.drain();
        assertEquals(List.of("write_pending 10", "tmr 70 ABORT_TASK_SET FUNCTION_REJECTED", "backstore write 0+1",
                "aborted 10", "tmr 70 LOGICAL_UNIT_RESET FUNCTION_COMPLETE"), events);
        a.submitTmr(TmfFunction.ABORT_TASK_SET, Lun.encode(1), 70, 0);
        assertEquals("70 ABORT_TASK_SET FUNCTION_COMPLETE", fabric.tmResponses.get(2), "the tag is free once answered");
    }
}
