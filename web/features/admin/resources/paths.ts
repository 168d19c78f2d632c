/** Paths of the admin resource screens (registered in web/router.tsx). */
export const RESOURCES_PATH = '/admin/resources';
export const NEW_RESOURCE_PATH = `${RESOURCES_PATH}/new`;
export const resourcePath = (resourceId: string) => `${RESOURCES_PATH}/${encodeURIComponent(resourceId)}`;
