import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedIn, signedOut, companyRefreshed } from './auth-slice';

/** Browser storage key of the active department (spec part 1 §3). */
export const SELECTED_DEPARTMENT_KEY = 'selected-department';

const DEPARTMENT_NAMES: Record<string, string> = { sales: 'Sales', hr: 'HR', support: 'Customer Support' };

/** How a department key is shown: sales 'Sales', hr 'HR', support 'Customer Support', others as given. */
export function departmentName(key: string): string {
  return DEPARTMENT_NAMES[key] ?? key;
}

/**
 * Spec part 1 §4: the stored selection if the company still has it, otherwise its first
 * department (or none when it has none).
 */
export function initialDepartment(departments: readonly string[], stored: string | null): string | null {
  if (stored !== null && departments.includes(stored)) return stored;
  return departments[0] ?? null;
}

export type DepartmentState = { active: string | null };

const readStored = () => {
  try {
    return localStorage.getItem(SELECTED_DEPARTMENT_KEY);
  } catch {
    return null;
  }
};

// The reducer only decides; the storage write happens in the listener (lib/auth/session-listeners.ts).
export const departmentSlice = createSlice({
  name: 'department',
  initialState: { active: null } as DepartmentState,
  reducers: {
    departmentChosen(state, action: PayloadAction<string>) {
      state.active = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(signedIn, (state, action) => {
        state.active = initialDepartment(action.payload.company.departments, state.active ?? readStored());
      })
      .addCase(companyRefreshed, (state, action) => {
        state.active = initialDepartment(action.payload.departments, state.active);
      })
      .addCase(signedOut, (state) => {
        state.active = null;
      });
  },
  selectors: {
    selectActiveDepartment: (state) => state.active,
  },
});

export const { departmentChosen } = departmentSlice.actions;
export const { selectActiveDepartment } = departmentSlice.selectors;
