"use client";

// Toast store, modelled on the classic shadcn/ui `use-toast` (react-hot-toast inspired).
// A module-level store so `toast()` can be called from anywhere, including outside React.

import * as React from "react";

import type { ToastActionElement, ToastProps } from "@/components/ui/toast";

/** At most one toast is shown at a time; a new toast replaces the current one. */
export const TOAST_LIMIT = 1;
/** Delay before a dismissed toast is removed from the store. */
export const TOAST_REMOVE_DELAY = 1000000;
/** Auto-dismiss duration (ms) for every toast unless overridden per toast. */
export const TOAST_DURATION = 5000;
/** Swipe distance (px) needed to dismiss a toast. */
export const TOAST_SWIPE_THRESHOLD = 50;

export type ToastVariant = "default" | "destructive";

type ToasterToast = Omit<ToastProps, "title" | "children" | "variant"> & {
  id: string;
  title?: React.ReactNode;
  description?: React.ReactNode;
  action?: ToastActionElement;
  variant?: ToastVariant;
};

type ActionType =
  | { type: "ADD_TOAST"; toast: ToasterToast }
  | { type: "UPDATE_TOAST"; toast: Partial<ToasterToast> }
  | { type: "DISMISS_TOAST"; toastId?: ToasterToast["id"] }
  | { type: "REMOVE_TOAST"; toastId?: ToasterToast["id"] };

interface State {
  toasts: ToasterToast[];
}

let count = 0;

function genId(): string {
  count = (count + 1) % Number.MAX_SAFE_INTEGER;
  return count.toString();
}

const toastTimeouts = new Map<string, ReturnType<typeof setTimeout>>();

function addToRemoveQueue(toastId: string): void {
  if (toastTimeouts.has(toastId)) {
    return;
  }

  const timeout = setTimeout(() => {
    toastTimeouts.delete(toastId);
    dispatch({ type: "REMOVE_TOAST", toastId });
  }, TOAST_REMOVE_DELAY);

  toastTimeouts.set(toastId, timeout);
}

export function reducer(state: State, action: ActionType): State {
  switch (action.type) {
    case "ADD_TOAST":
      return {
        ...state,
        toasts: [action.toast, ...state.toasts].slice(0, TOAST_LIMIT),
      };

    case "UPDATE_TOAST":
      return {
        ...state,
        toasts: state.toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t)),
      };

    case "DISMISS_TOAST": {
      const { toastId } = action;

      // Side effect kept in the reducer for simplicity (as in the original implementation).
      if (toastId) {
        addToRemoveQueue(toastId);
      } else {
        state.toasts.forEach((t) => addToRemoveQueue(t.id));
      }

      return {
        ...state,
        toasts: state.toasts.map((t) =>
          t.id === toastId || toastId === undefined ? { ...t, open: false } : t,
        ),
      };
    }

    case "REMOVE_TOAST":
      if (action.toastId === undefined) {
        return { ...state, toasts: [] };
      }
      return {
        ...state,
        toasts: state.toasts.filter((t) => t.id !== action.toastId),
      };
  }
}

const listeners: Array<(state: State) => void> = [];

const initialState: State = { toasts: [] };
let memoryState: State = initialState;

function dispatch(action: ActionType): void {
  memoryState = reducer(memoryState, action);
  listeners.forEach((listener) => listener(memoryState));
}

type Toast = Omit<ToasterToast, "id">;

/** Show a toast. Works anywhere (event handlers, plain modules, async callbacks). */
function toast({ ...props }: Toast) {
  const id = genId();

  const update = (next: Partial<ToasterToast>) => dispatch({ type: "UPDATE_TOAST", toast: { ...next, id } });
  const dismiss = () => dispatch({ type: "DISMISS_TOAST", toastId: id });

  dispatch({
    type: "ADD_TOAST",
    toast: {
      ...props,
      id,
      open: true,
      onOpenChange: (open) => {
        if (!open) dismiss();
      },
    },
  });

  return { id, dismiss, update };
}

function subscribe(listener: (state: State) => void): () => void {
  listeners.push(listener);
  return () => {
    const index = listeners.indexOf(listener);
    if (index > -1) {
      listeners.splice(index, 1);
    }
  };
}

function getSnapshot(): State {
  return memoryState;
}

function getServerSnapshot(): State {
  return initialState;
}

/** Subscribe a component to the toast store. */
function useToast() {
  const state = React.useSyncExternalStore(subscribe, getSnapshot, getServerSnapshot);

  return {
    ...state,
    toast,
    dismiss: (toastId?: string) => dispatch({ type: "DISMISS_TOAST", toastId }),
  };
}

export { useToast, toast, type ToasterToast, type Toast };
