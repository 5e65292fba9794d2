import { linkTo } from '../../api/routes/operation.js';
import * as practicalTrainingPublic from '../../api/routes/practical-training-public.js';
import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import type { InviteLinks } from '../../core/portal-v2/booking-invites.js';
import { familyBaseUrl } from '../../core/platform/family-urls.js';

/** The booking kinds' invite pages, in their own families (decision 11): the link the family's invite e-mail carries. */
const INVITE_PAGES = {
  'practical-training': practicalTrainingPublic.showInvitePage,
  'virtual-life-support': virtualLifeSupport.showInvitePage,
} as const;

export const inviteLinks: InviteLinks = (family, token) => {
  const page = INVITE_PAGES[family as keyof typeof INVITE_PAGES];
  if (!page) throw new Error(`The ${family} family has no invite page`);
  return linkTo(familyBaseUrl(family), page, { token });
};
