"use client";

// The TPS and CTPS registers in the Settings tab: as loaded, and the admin's upload of one.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { adminJson } from "@/lib/client/admin-api";
import { adminKeys } from "@/lib/client/query-keys";
import type { PhoneRegisterDto, RegisterLoadDto, RegisterName } from "@/lib/schemas/admin";

export function usePhoneRegisters() {
  return useQuery({
    queryKey: adminKeys.phoneRegisters,
    queryFn: () => adminJson<PhoneRegisterDto[]>("/api/admin/phone-registers"),
  });
}

export function useUploadRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ register, fileDate, file }: { register: RegisterName; fileDate: string; file: File }) => {
      // The fields go before the file: the server reads them first.
      const form = new FormData();
      form.append("register", register);
      form.append("fileDate", fileDate);
      form.append("file", file);
      return adminJson<RegisterLoadDto>("/api/admin/phone-registers", { method: "POST", body: form });
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.phoneRegisters }),
        queryClient.invalidateQueries({ queryKey: adminKeys.stats }),
      ]),
  });
}
