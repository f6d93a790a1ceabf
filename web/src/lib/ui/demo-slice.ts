import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** Spec part 1 §2: the modal's title when the opener names none. */
export const DEFAULT_DEMO_TITLE = 'Schedule Your Demo';
/** The title the app passes: it names the product. */
export const PRODUCT_DEMO_TITLE = 'Schedule Your Parlance Demo';

export type DemoState = { open: boolean; title: string };

// The demo modal is open or closed (spec part 1 §4); every 'Request a Demo' button opens it.
export const demoSlice = createSlice({
  name: 'demo',
  initialState: { open: false, title: DEFAULT_DEMO_TITLE } as DemoState,
  reducers: {
    demoRequested(state, action: PayloadAction<string | undefined>) {
      state.open = true;
      state.title = action.payload ?? DEFAULT_DEMO_TITLE;
    },
    demoClosed(state) {
      state.open = false;
    },
  },
  selectors: {
    selectDemo: (state) => state,
  },
});

export const { demoRequested, demoClosed } = demoSlice.actions;
export const { selectDemo } = demoSlice.selectors;
