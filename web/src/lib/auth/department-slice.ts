import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { signedIn, companyRefreshed } from './auth-slice';

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

/** The selection; it means something only while someone is signed in. */
export type DepartmentState = { active: string | null };

const readStored = () => {
  try {
    return localStorage.getItem(SELECTED_DEPARTMENT_KEY);
  } catch {
    return null;
  }
};

// Storage is read once, when the store is made, and written by the listener in
// lib/auth/session.ts: the reducers only decide. The selection outlives a sign-out, as the stored
// one does, and is checked against the company at the next sign-in.
export const departmentSlice = createSlice({
  name: 'department',
  initialState: (): DepartmentState => ({ active: readStored() }),
  reducers: {
    departmentChosen(state, action: PayloadAction<string>) {
      state.active = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(signedIn, (state, action) => {
        state.active = initialDepartment(action.payload.company.departments, state.active);
      })
      .addCase(companyRefreshed, (state, action) => {
        state.active = initialDepartment(action.payload.departments, state.active);
      });
  },
  selectors: {
    selectActiveDepartment: (state) => state.active,
  },
});

export const { departmentChosen } = departmentSlice.actions;
export const { selectActiveDepartment } = departmentSlice.selectors;
