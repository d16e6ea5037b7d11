


// Text as tesseract read the fixture screenshots (tests/fixtures/screenshots), slips included.
export const GOOGLE_ANA = `9:41 al @m
& Crumb & Co Bakery
Crumb & Co Bakery
4.7 (312) - Bakery
Open - Closes 6 PM
Overview Reviews Photos About
Google reviews
(A) Ana Pereira
Local Guide - 23 reviews - 41 photos
2 days ago
Best croissants in Portland, flaky and buttery every
single time. The staff remembered my order after
two visits and the oat latte was perfect. Worth the
short wait on a Saturday morning.
1h Like Share
Response from the owner - 1 day ago
Thank you so much Ana, see you next Saturday!`;

export const GOOGLE_JOSE = `9:41
& Crumb & Co Bakery
Crumb & Co Bakery
4.7 (312) - Bakery
Open - Closes 6 PM
Overview Reviews Photos About
() José Alvarez
4 reviews
a week ago
Lovely little bakery with a friendly team. The
almond croissant was great, coffee a bit too hot for
me but | will be back for the sourdough.
ih Like Share`;

export const YELP_MARCUS = `Crumb & Co Bakery
4.6 (128 reviews)
Bakeries, Coffee & Tea - $$
Recommended Reviews
Marcus Lee
Portland, OR - 58 friends - 34 reviews
Nov 12, 2026
Came for the sourdough, stayed for the cardamom
buns. Seating is limited but the staff are quick and
cheerful. Prices are fair for the quality.
Useful 3 Funny Cool 1`;

export const FACEBOOK_PRIYA = `9:41 al @m
facebook 0
& Crumb & Co Bakery
Reviews : 96% recommend (212 reviews)
Priya Shah recommends
Crumb & Co Bakery
2d - Public
We ordered a birthday cake here and it was
gorgeous and delicious. Everyone asked where it
came from. Thank you for fitting us in at short
notice!
® 14 3 comments
Like Comment Share`;

export const INSTAGRAM_PROFILE = (button: string) => `9:41 al @m
& crumbandco
1,204 5,321 210
posts followers following
Crumb & Co Bakery
Bakery
Small-batch sourdough, croissants and cardamom buns
baked every morning. Open daily 7am - 6pm.
Followed by sam.k and 12 others
${button}
Menu Cakes Hours`;

export const INSTAGRAM_POST = (caption: string) => `9:41 al @m
& Posts
ana.pereira
Crumb & Co Bakery
0 OO »
Liked by sam.k and 48 others
ana.pereira ${caption}
View all 4 comments
2 days ago`;

export const X_PROFILE = `Following
Crumb & Co Bakery
@crumbandco
Small-batch sourdough, croissants and cardamom
buns baked every morning. Open daily 7am - 6pm.
Portland, OR Joined March 2019
210 Following 5,321 Followers
Posts Replies Media Likes
(c] Crumb & Co Bakery @crumbandco - 3h`;

export const TIKTOK_PROFILE = `9:41 al @m
& Crumb & Co Bakery
@crumbandco
210 5.3K 48.2K
Following Followers Likes
Following Message
Small-batch sourdough, croissants and
cardamom buns baked every morning. Open
daily 7am - 6pm.`;
