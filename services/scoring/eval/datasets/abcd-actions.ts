/**
 * ABCD's names, written down once. kb.json and ontology.json name actions and subflows in
 * kebab/snake case (`pull-up-account`, `return_size`); guidelines.json names them as the agent's
 * screen did (the button "[Pull up Account]", the subflow "Return Due to Size").
 */

export interface ActionWords {
  /** The button(s) guidelines.json describes the action under. */
  buttons: readonly string[];
  /** "The agent <does>": the action in words. */
  does: string;
}

export const ACTION_WORDS: Readonly<Record<string, ActionWords>> = {
  'pull-up-account': { buttons: ['Pull up Account'], does: "pulls up the customer's account" },
  'verify-identity': { buttons: ['Verify Identity'], does: "verifies the customer's identity" },
  'validate-purchase': { buttons: ['Validate Purchase'], does: 'validates the purchase' },
  'make-password': { buttons: ['Make Password'], does: 'makes a new password for the customer' },
  'promo-code': { buttons: ['Promo Code'], does: 'gives the customer a promo code' },
  'subscription-status': { buttons: ['Subscription Status'], does: 'looks up the subscription status' },
  'ask-the-oracle': { buttons: ['Ask the Oracle'], does: 'checks with the system whether the company made a mistake' },
  'offer-refund': { buttons: ['Offer Refund'], does: 'offers a refund' },
  'make-purchase': { buttons: ['Make Purchase'], does: 'makes the purchase for the customer' },
  'record-reason': { buttons: ['Record Reason'], does: 'records the reason' },
  'enter-details': { buttons: ['Enter Details', 'Enter Detail'], does: "enters the customer's details" },
  'shipping-status': { buttons: ['Shipping Status'], does: 'records the shipping status' },
  'update-order': { buttons: ['Update Order'], does: 'updates the order' },
  'update-account': { buttons: ['Update Account'], does: "updates the customer's account" },
  'send-link': { buttons: ['Send Link'], does: 'sends the customer a link' },
  'notify-team': { buttons: ['Notify Internal Team'], does: 'notifies an internal team (the manager, the website team or purchasing)' },
  membership: { buttons: ['Membership Privileges'], does: "checks what the customer's membership level allows" },
  'search-faq': { buttons: ['Search FAQ'], does: 'searches the FAQ' },
  'try-again': { buttons: ['Try Again'], does: 'asks the customer to try again' },
  'log-out-in': { buttons: ['Log Out/In'], does: 'asks the customer to log out and back in' },
  instructions: { buttons: ['Instructions'], does: 'gives the customer instructions' },
  'search-jeans': { buttons: ['Jeans'], does: 'looks up the FAQ about jeans' },
  'search-shirt': { buttons: ['Shirt'], does: 'looks up the FAQ about shirts' },
  'search-boots': { buttons: ['Boots'], does: 'looks up the FAQ about boots' },
  'search-jacket': { buttons: ['Jacket'], does: 'looks up the FAQ about jackets' },
  'search-pricing': { buttons: ['Pricing'], does: 'looks up the FAQ about pricing' },
  'search-timing': { buttons: ['Timing'], does: 'looks up the FAQ about timing' },
  'search-membership': { buttons: ['Membership'], does: 'looks up the FAQ about membership' },
  'search-policy': { buttons: ['Policy'], does: 'looks up the FAQ about policies' },
  'select-faq': { buttons: ['Select Answer'], does: "selects the FAQ answer to the customer's question" },
};

/** kb.json/ontology.json subflow → its title in guidelines.json (the flow's title is found by normalising, e.g. "Single-Item Query" → single_item_query). */
export const SUBFLOW_TITLES: Readonly<Record<string, string>> = {
  recover_username: 'Recover Username',
  recover_password: 'Recover Password',
  reset_2fa: 'Reset Two-Factor Auth',
  status_service_added: 'Status Service Added',
  status_service_removed: 'Status Service Removed',
  status_shipping_question: 'Status Shipping Question',
  status_credit_missing: 'Status Credit Missing',
  manage_change_address: 'Manage Change Address',
  manage_change_name: 'Manage Change Name',
  manage_change_phone: 'Manage Change Phone',
  manage_payment_method: 'Manage Payment Method',
  status_mystery_fee: 'Status Mystery Fee',
  status_delivery_time: 'Status Delivery Time',
  status_payment_method: 'Status Payment Method',
  status_quantity: 'Status Quantity',
  manage_upgrade: 'Manage Upgrade',
  manage_downgrade: 'Manage Downgrade',
  manage_create: 'Manage Create',
  manage_cancel: 'Manage Cancel',
  refund_initiate: 'Initiate Refund',
  refund_update: 'Update Refund',
  refund_status: 'Refund Status',
  return_stain: 'Return Due to Stain',
  return_color: 'Return Due to Color',
  return_size: 'Return Due to Size',
  bad_price_competitor: 'Bad Price Competitor',
  bad_price_yesterday: 'Bad Price Yesterday',
  out_of_stock_general: 'Out-of-Stock General',
  out_of_stock_one_item: 'Out-of-Stock One Item',
  promo_code_invalid: 'Promo Code Invalid',
  promo_code_out_of_date: 'Promo Code Out of Date',
  mistimed_billing_already_returned: 'Mistimed Billing Already Returned',
  mistimed_billing_never_bought: 'Mistimed Billing Never Bought',
  status: 'Shipping Status',
  manage: 'Manage Shipping',
  missing: 'Missing Item',
  cost: 'Shipping Cost',
  boots: 'Boots FAQ',
  shirt: 'Shirt FAQ',
  jeans: 'Jeans FAQ',
  jacket: 'Jacket FAQ',
  pricing: 'Pricing FAQ',
  membership: 'Membership FAQ',
  timing: 'Timing FAQ',
  policy: 'Policy FAQ',
  status_active: 'Status Active',
  status_due_amount: 'Status Due Amount',
  status_due_date: 'Status Due Date',
  manage_pay_bill: 'Manage Pay Bill',
  manage_extension: 'Manage Extension',
  manage_dispute_bill: 'Manage Dispute Bill',
  credit_card: 'Invalid Credit Card',
  shopping_cart: 'Cart Not Updating',
  search_results: 'Search Not Working',
  slow_speed: 'Website Too Slow',
};

/**
 * The text the agent's screen wrote for an action, for the rare turn whose `delexed` entry does
 * not name it (`targets[2]`). Only the templates seen in the sample are known.
 */
export const ACTION_TEMPLATES: readonly { pattern: RegExp; action: string | ((match: RegExpExecArray) => string) }[] = [
  { pattern: /^Account has been pulled up for /i, action: 'pull-up-account' },
  { pattern: /^Purchase validation in progress/i, action: 'validate-purchase' },
  { pattern: /^Details of .* have been entered/i, action: 'enter-details' },
  { pattern: /^The (manager|website team|purchasing department) has been notified/i, action: 'notify-team' },
  { pattern: /^Searching the FAQ pages/i, action: 'search-faq' },
  { pattern: /^System Action: search ([a-z]+)/i, action: (match) => `search-${match[1]!.toLowerCase()}` },
  { pattern: /^FAQ answer related to .* was selected/i, action: 'select-faq' },
];

/** "Single-Item Query" → "single_item_query". */
export function flowKey(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
}
