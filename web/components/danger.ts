/**
 * The one look of an action that takes something away, on a details screen or in a table's row (revoke, reject,
 * remove, ban, delete, end): red outline (its text is the theme's darkened red, 4.5:1 in both schemes), after the plain actions;
 * its confirmation's button is filled red (ConfirmModal, BanModal). Plain actions keep the theme's colour.
 */
export const DANGER = { variant: 'outline', color: 'red' } as const;
