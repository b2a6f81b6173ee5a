package org.rdma.itest.support;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rdma.verbs.runtime.ClientDTO;
import org.rdma.verbs.runtime.DeviceDTO;
import org.rdma.verbs.runtime.FailedDTO;
import org.rdma.verbs.runtime.IbRuntime;
import org.rdma.verbs.runtime.RuntimeDTO;

/** Reads the core's {@link IbRuntime} DTOs the way the tests need them. */
public final class Runtimes {
    private Runtimes() {
    }

    private static <T> List<T> list(T[] a) {
        return a == null ? List.of() : Arrays.asList(a);
    }

    /** Names of the devices of {@code driverId}, in registration order. */
    public static List<String> deviceNames(IbRuntime rt, String driverId) {
        List<String> names = new ArrayList<>();
        for (DeviceDTO d : list(rt.getRuntimeDTO().devices)) {
            if (driverId.equals(d.driverId)) {
                names.add(d.name);
            }
        }
        return names;
    }

    /** The device named {@code name}, or null. */
    public static DeviceDTO device(IbRuntime rt, String name) {
        for (DeviceDTO d : list(rt.getRuntimeDTO().devices)) {
            if (name.equals(d.name)) {
                return d;
            }
        }
        return null;
    }

    /** Waits until {@code driverId} has exactly {@code n} devices, all REGISTERED; returns the names. */
    public static List<String> awaitDevices(IbRuntime rt, String driverId, int n) {
        try {
            awaitStates(rt, driverId, n);
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; failed providers: " + failures(rt.getRuntimeDTO()), e);
        }
        return deviceNames(rt, driverId);
    }

    private static void awaitStates(IbRuntime rt, String driverId, int n) {
        Poll.value(driverId + " has " + n + " registered devices", () -> {
            List<String> states = new ArrayList<>();
            for (DeviceDTO d : list(rt.getRuntimeDTO().devices)) {
                if (driverId.equals(d.driverId)) {
                    states.add(d.name + "=" + d.state);
                }
            }
            return states;
        }, s -> s.size() == n && s.stream().allMatch(x -> x.endsWith("=REGISTERED")));
    }

    /** Waits until a device named {@code name} is REGISTERED. */
    public static DeviceDTO awaitDevice(IbRuntime rt, String name) {
        return Poll.value("device " + name + " is registered", () -> device(rt, name),
                d -> d != null && "REGISTERED".equals(d.state));
    }

    /** Waits until no device named {@code name} is listed. */
    public static void awaitGone(IbRuntime rt, String name) {
        Poll.value("device " + name + " is gone", () -> device(rt, name), Objects::isNull);
    }

    /** The failed-provider entry for service {@code serviceId}, or null. */
    public static FailedDTO failedProvider(IbRuntime rt, long serviceId) {
        for (FailedDTO f : list(rt.getRuntimeDTO().failedProviders)) {
            if (f.serviceId == serviceId) {
                return f;
            }
        }
        return null;
    }

    /** Waits until service {@code serviceId} is listed as a failed provider. */
    public static FailedDTO awaitFailedProvider(IbRuntime rt, long serviceId) {
        return Poll.value("provider service " + serviceId + " is listed as failed", () -> failedProvider(rt, serviceId),
                Objects::nonNull);
    }

    /** The registered client named {@code name}, or null. */
    public static ClientDTO client(IbRuntime rt, String name) {
        for (ClientDTO c : list(rt.getRuntimeDTO().clients)) {
            if (name.equals(c.name)) {
                return c;
            }
        }
        return null;
    }

    /** Every failed provider, for messages. */
    public static String failures(RuntimeDTO dto) {
        StringBuilder sb = new StringBuilder();
        for (FailedDTO f : list(dto.failedProviders)) {
            sb.append(f.serviceId).append(':').append(f.name).append(':').append(f.failureReason).append(':')
                    .append(f.message).append("; ");
        }
        return sb.toString();
    }

    /** Resource counts of a device with absent types as 0, only non-zero entries kept. */
    public static Map<String, Integer> nonZero(Map<String, Integer> counts) {
        Map<String, Integer> m = new java.util.TreeMap<>();
        if (counts != null) {
            counts.forEach((k, v) -> {
                if (v != null && v != 0) {
                    m.put(k, v);
                }
            });
        }
        return m;
    }
}
