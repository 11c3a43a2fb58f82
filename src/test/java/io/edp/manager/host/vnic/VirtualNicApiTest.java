package io.edp.manager.host.vnic;

import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.patch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import java.util.UUID;

import io.edp.manager.ManagerTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.ResultActions;

class VirtualNicApiTest extends ManagerTest {

    private UUID hostId;
    private UUID vmId;

    @BeforeEach
    void vm() throws Exception {
        hostId = createHost("esx-01");
        vmId = createVm(hostId, "web");
    }

    @Test
    void createsAVirtualNicWithItsMacInLowerCase() throws Exception {
        var id = create(vnics(vmId), vnic("00:50:56:AA:BB:01", 100, "VMXNET3"));

        mvc.perform(get(vnics(vmId) + "/" + id).with(viewer()))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.mac").value("00:50:56:aa:bb:01"))
                .andExpect(jsonPath("$.vlan").value(100))
                .andExpect(jsonPath("$.adapterType").value("VMXNET3"))
                .andExpect(jsonPath("$.vmId").value(vmId.toString()));
    }

    @Test
    void vlansRunFrom0To4094() throws Exception {
        postVnic(vmId, vnic("00:50:56:aa:bb:01", 4094, "E1000")).andExpect(status().isCreated());
        postVnic(vmId, vnic("00:50:56:aa:bb:02", 4095, "E1000"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("vlan"));
        postVnic(vmId, vnic("00:50:56:aa:bb:03", -1, "E1000"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("vlan"));
    }

    @Test
    void theMtuDefaultsTo1500AndRunsFrom1280To9216() throws Exception {
        var id = create(vnics(vmId), vnic("00:50:56:aa:bb:01", 0, "VMXNET3"));
        mvc.perform(get(vnics(vmId) + "/" + id).with(viewer())).andExpect(jsonPath("$.mtu").value(1500));
        mvc.perform(patch(vnics(vmId) + "/" + id).with(operator()).contentType(MERGE_PATCH)
                        .content("{\"mtu\": 9000}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.mtu").value(9000));
        mvc.perform(get(vnics(vmId) + "/" + id).with(viewer())).andExpect(jsonPath("$.mtu").value(9000));
        for (int mtu : new int[] {1279, 9217}) {
            postVnic(vmId, vnic("00:50:56:aa:bb:02", 0, "VMXNET3").replace("}", ", \"mtu\": " + mtu + "}"))
                    .andExpect(status().isBadRequest())
                    .andExpect(jsonPath("$.errors[0].field").value("mtu"));
        }
    }

    @Test
    void anUnknownAdapterTypeIs400NamingTheAllowedOnes() throws Exception {
        postVnic(vmId, vnic("00:50:56:aa:bb:01", 0, "RTL8139"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("adapterType"))
                .andExpect(jsonPath("$.detail", containsString("VMXNET3")));
    }

    @Test
    void macsMustBeUnicastAndWellFormed() throws Exception {
        postVnic(vmId, vnic("01:00:5e:00:00:01", 0, "VMXNET3"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("macUnicast"));
        postVnic(vmId, vnic("00-50-56-aa-bb-01", 0, "VMXNET3"))
                .andExpect(status().isBadRequest())
                .andExpect(jsonPath("$.errors[0].field").value("mac"));
    }

    @Test
    void aMacIsUniqueAcrossTheVmsOfAHost() throws Exception {
        create(vnics(vmId), vnic("00:50:56:aa:bb:01", 0, "VMXNET3"));
        var otherVm = createVm(hostId, "db");

        postVnic(otherVm, vnic("00:50:56:AA:BB:01", 0, "VMXNET3"))
                .andExpect(status().isConflict())
                .andExpect(jsonPath("$.detail", containsString("00:50:56:aa:bb:01")));
    }

    @Test
    void anotherHostMayReuseAMac() throws Exception {
        create(vnics(vmId), vnic("00:50:56:aa:bb:01", 0, "VMXNET3"));
        hostId = createHost("esx-02");
        var vmOnOtherHost = createVm(hostId, "web");

        postVnic(vmOnOtherHost, vnic("00:50:56:aa:bb:01", 0, "VMXNET3")).andExpect(status().isCreated());
    }

    @Test
    void patchingOntoAMacInUseIs409() throws Exception {
        create(vnics(vmId), vnic("00:50:56:aa:bb:01", 0, "VMXNET3"));
        var id = create(vnics(vmId), vnic("00:50:56:aa:bb:02", 0, "VMXNET3"));

        mvc.perform(patch(vnics(vmId) + "/" + id).with(operator()).contentType(MERGE_PATCH)
                        .content("{\"mac\": \"00:50:56:aa:bb:01\"}"))
                .andExpect(status().isConflict());
        mvc.perform(patch(vnics(vmId) + "/" + id).with(operator()).contentType(MERGE_PATCH)
                        .content("{\"vlan\": 7}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.mac").value("00:50:56:aa:bb:02"));
    }

    private String vnics(UUID vm) {
        return "/api/v1/hosts/" + hostId + "/vms/" + vm + "/vnics";
    }

    private static String vnic(String mac, int vlan, String adapterType) {
        return """
                {"mac": "%s", "vlan": %d, "adapterType": "%s", "rxQueues": 2}""".formatted(mac, vlan, adapterType);
    }

    private ResultActions postVnic(UUID vm, String json) throws Exception {
        return mvc.perform(post(vnics(vm)).with(operator()).contentType(MediaType.APPLICATION_JSON).content(json));
    }
}
