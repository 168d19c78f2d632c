/**
 * The one look of an action that takes something away on a details screen (revoke, reject, remove, ban, delete):
 * red outline (its light text is the theme's darkened red, 4.5:1 in both schemes), placed after the plain actions;
 * its confirmation's button is filled red (ConfirmModal, BanModal). Plain actions keep the theme's colour.
 */
export const DANGER = { variant: 'outline', color: 'red' } as const;
